// What every transport shares: the refusal it throws (ApiError: the code and the
// sentence of a refused request, and the game as it stands when the server sent it with
// the refusal), made from the answer by refusalOf, and the reading of an answer's JSON.

export class ApiError extends Error {
  constructor(message, code, status, state = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.state = state; // another window changed the game: the server's state of it, to show
  }
}

// The refusal an answer of status (not 2xx) carries: data is its JSON (null: none could be
// read, the sentence is fallback).
export function refusalOf(data, status, fallback) {
  const message = data && data.message ? data.message : fallback;
  return new ApiError(message, data && data.error, status, (data && data.state) || null);
}

// Deal numbers go up to 2**63-1: the page keeps each "number" as the text the answer
// held, never as a JavaScript number (exact only up to 2**53).
export function readJSON(text) {
  return JSON.parse(text, (key, value, context) => (
    key === "number" && typeof value === "number" && context && typeof context.source === "string"
      ? context.source : value));
}
