// The local JSON API: one request at a time per channel, each one stoppable.
//
// A new request on a channel stops the one before it, Stop stops it, and leaving the page
// stops them all: the fetch is aborted, the browser closes its connection and the server
// ends the worker that computed the answer.

const running = new Map();  // channel -> AbortController of its request in progress

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function ask(command, body, channel = command) {
  stop(channel);
  const controller = new AbortController();
  running.set(channel, controller);
  try {
    const response = await fetch(`/api/${command}`, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body), signal: controller.signal,
    });
    const answer = await response.json();
    if (!response.ok) throw new ApiError(answer.error || `HTTP ${response.status}`, response.status);
    return answer;
  } finally {
    if (running.get(channel) === controller) running.delete(channel);
  }
}

export async function records(command, body, channel = command) {
  return (await ask(command, body, channel)).records;
}

export function stop(channel) {
  const controller = running.get(channel);
  if (controller) {
    running.delete(channel);
    controller.abort();
  }
}

export function stopAll() {
  for (const channel of [...running.keys()]) stop(channel);
}

export const busy = (channel) => running.has(channel);

export async function getJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new ApiError(`${path} answered HTTP ${response.status}`, response.status);
  return response.json();
}
