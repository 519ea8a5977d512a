// The way to the server: every request of the page goes through request(), which
// answers the parsed JSON or throws an ApiError (the refusal's code and sentence).  It
// is fetch to the HTTP API here; another transport (a Web Worker running the same API)
// needs to replace this module only.

import { ApiError, readJSON, refusalOf } from "./answers.js";
import { t } from "./i18n.js";

// method "GET" or "POST"; path with its query ("/api/review?id=3"); body an object (POST).
// A POST is sent with keepalive, so one sent as the page is hidden or closed still arrives.
export async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
    options.keepalive = true;
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(t("The game server does not answer. Is it still running?"), "offline", 0);
  }
  let data = null;
  try {
    data = readJSON(await response.text());
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw refusalOf(data, response.status, t("The server refused ({status}).", { status: response.status }));
  }
  return data;
}
