/** One request, as seen once its response is ready. */
export interface ObservedRequest {
  method: string;
  /** The matched route's name (else `METHOD /pattern`); `undefined` when no route matched. */
  route: string | undefined;
  status: number;
  /** From the request's arrival to its response's headers. */
  seconds: number;
}

/**
 * Told of every request when it is answered (metrics count them): called synchronously, so it
 * should only count. With none registered, requests are not timed at all.
 */
export type RequestObserver = (request: ObservedRequest) => void;
