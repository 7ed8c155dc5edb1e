// The JSON API (docs/guides/web.md). Every call on a session sends its token as a Bearer header.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    throw new ApiError(res.status, `${res.status} ${res.statusText}`);
  }
  if (!res.ok) throw new ApiError(res.status, data && data.error ? data.error : `${res.status}`);
  return data;
}

export const api = {
  catalog: () => call("GET", "/api/catalog"),
  newGame: (body) => call("POST", "/api/games", { body }),
  game: (id, token, viewer, since) =>
    call("GET", `/api/games/${encodeURIComponent(id)}?viewer=${viewer ?? ""}&since=${since || 0}`, { token }),
  move: (id, token, action, since) => call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { token, body: { action, since } }),
  advance: (id, token, steps, viewer, since) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/advance`, { token, body: { steps, viewer: viewer ?? "", since } }),
  record: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/record`, { token }),
  records: () => call("GET", "/api/records"),
  openReplay: (body) => call("POST", "/api/replays", { body }),
  replay: (id, token, pos, viewer) =>
    call("GET", `/api/replays/${encodeURIComponent(id)}?pos=${pos}&viewer=${viewer ?? ""}`, { token }),
};
