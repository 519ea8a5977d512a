// What every transport shares: the refusal it throws (ApiError: the code and the
// sentence of a refused request) and the reading of an answer's JSON.

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// Deal numbers go up to 2**63-1: the page keeps each "number" as the text the answer
// held, never as a JavaScript number (exact only up to 2**53).
export function readJSON(text) {
  return JSON.parse(text, (key, value, context) => (
    key === "number" && typeof value === "number" && context && typeof context.source === "string"
      ? context.source : value));
}
