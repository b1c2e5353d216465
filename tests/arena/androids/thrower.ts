// Throws every turn: each turn fails with the reason code script-error.
const fail: AndroidTurn = () => {
  throw new Error('this android always fails');
};
export default fail;
