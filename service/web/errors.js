// Plain sentences for the errors a player can meet: the gateway or the service unreachable, a match
// that is gone, a token that is refused, a move that came too late, a busy server. The technical text
// (gRPC code and details) stays in the browser console and in the element's title, for bug reports.
import { GrpcError } from "./grpcweb.js";

const CODE = {
  CANCELLED: 1, UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, ABORTED: 10, UNIMPLEMENTED: 12, INTERNAL: 13,
  UNAVAILABLE: 14, UNAUTHENTICATED: 16,
};

// One sentence (or two) for an error thrown by a call; `err` may be a GrpcError, a fetch error or
// anything else thrown.
export function explain(err) {
  if (!(err instanceof GrpcError)) {
    return "Something went wrong in this page. Reloading it usually helps; matches in progress are kept.";
  }
  const details = (err.details || "").trim();
  switch (err.code) {
    case CODE.UNAVAILABLE:
      if (err.network) {
        return "The game server cannot be reached. Check your connection, or that `orrery gateway` is running; " +
          "matches in progress are kept: reload the page to go on.";
      }
      return "The game server is not answering: it may be stopped or restarting. Reload the page in a moment; " +
        "matches in progress are kept.";
    case CODE.DEADLINE_EXCEEDED:
      return "The game server took too long to answer. Try again.";
    case CODE.RESOURCE_EXHAUSTED:
      return "The game server is busy right now. Wait a few seconds and try again.";
    case CODE.NOT_FOUND:
      return "This match no longer exists on the server (matches expire after a week without a move, " +
        "or the server's storage was reset). Start a new match.";
    case CODE.UNAUTHENTICATED:
    case CODE.PERMISSION_DENIED:
      return "The server does not accept this browser's seat for the match (the saved token is missing or wrong).";
    case CODE.FAILED_PRECONDITION:
    case CODE.ABORTED:
      return "The match moved on before your move arrived, so it was not played. The board now shows the " +
        "current position.";
    case CODE.INVALID_ARGUMENT:
      return `The server refused the request: ${details || "a value was out of range"}.`;
    case CODE.UNIMPLEMENTED:
      return "The server does not offer this call; it may be an older version than this page.";
    case CODE.CANCELLED:
      return "The request was cancelled.";
    default:
      return "The game server hit an internal error. Try again; if it keeps happening, the server's log says why.";
  }
}

// The technical form, for the console and tooltips.
export function technical(err) {
  return err instanceof GrpcError ? `${err.message}${err.httpStatus ? ` (HTTP ${err.httpStatus})` : ""}` : String(err);
}
