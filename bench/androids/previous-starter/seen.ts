// The tiles seen at least once: what exploring is for. Kept in memory as one character per
// 2 x 2 block of tiles (a bit per tile, '0' + bits, so '?' is a block seen whole), which is
// small enough for a big board and cheap to update: a turn touches only the tiles in sight.

const ZERO = 48;
/** A block whose four tiles have all been seen. */
const WHOLE = String.fromCharCode(ZERO + 15);

export class SeenMap {
  private readonly blocks: string[];
  private readonly across: number;

  constructor(text: string) {
    const W = rules.world.width;
    const H = rules.world.height;
    this.across = Math.ceil(W / 2);
    const count = this.across * Math.ceil(H / 2);
    if (text.length === count) {
      this.blocks = text.split('');
      return;
    }
    // A fresh map: nothing seen, except the tiles a block along an odd edge does not have.
    this.blocks = [];
    for (let b = 0; b < count; b++) {
      const x = (b % this.across) * 2;
      const y = Math.floor(b / this.across) * 2;
      const missing = (x + 1 >= W ? 2 + 8 : 0) | (y + 1 >= H ? 4 + 8 : 0);
      this.blocks.push(String.fromCharCode(ZERO + missing));
    }
  }

  has(tile: number): boolean {
    const W = rules.world.width;
    const x = tile % W;
    const y = (tile - x) / W;
    const bits = this.blocks[(y >> 1) * this.across + (x >> 1)].charCodeAt(0) - ZERO;
    return ((bits >> (((y & 1) << 1) | (x & 1))) & 1) === 1;
  }

  mark(tile: number): void {
    const W = rules.world.width;
    const x = tile % W;
    const y = (tile - x) / W;
    const b = (y >> 1) * this.across + (x >> 1);
    const bits = this.blocks[b].charCodeAt(0) - ZERO;
    const bit = 1 << (((y & 1) << 1) | (x & 1));
    if ((bits & bit) === 0) this.blocks[b] = String.fromCharCode(ZERO + (bits | bit));
  }

  /** The top-left tile of every 2 x 2 block that still holds a tile never seen. */
  unseenCorners(): number[] {
    const out: number[] = [];
    const W = rules.world.width;
    for (let b = 0; b < this.blocks.length; b++) {
      if (this.blocks[b] !== WHOLE) out.push(Math.floor(b / this.across) * 2 * W + (b % this.across) * 2);
    }
    return out;
  }

  /** How many 2 x 2 blocks still hold a tile never seen. */
  unseenBlocks(): number {
    return this.text().split(WHOLE).join('').length;
  }

  text(): string {
    return this.blocks.join('');
  }
}

