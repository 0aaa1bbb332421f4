import http from 'node:http';
import https from 'node:https';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { failSpan, tracer } from './tracing.js';

type AddRequest = (request: http.ClientRequest, options: http.RequestOptions) => void;

/**
 * An HTTP(S) agent (keep-alive, like Node's global one) that puts each request in a client span,
 * child of the caller's span, and sends the span's `traceparent`. Both payment SDKs take an agent
 * (Stripe's `httpAgent`, Braintree's `customHttpAgent`); `addRequest` is where an agent first sees
 * a request, in the caller's async context and before its headers are written.
 */
export function tracedAgent(ssl: boolean, system: string): http.Agent {
  const agent = ssl ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const target = agent as unknown as { addRequest: AddRequest };
  const addRequest = target.addRequest.bind(agent);
  target.addRequest = (request, options) => {
    const span = tracer().startSpan(request.method, {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': request.method,
        'server.address': options.host ?? options.hostname ?? '',
        'server.port': Number(options.port) || (ssl ? 443 : 80),
        'url.path': request.path.split('?')[0]!,
        'tollgate.payment.provider': system,
      },
    });
    propagation.inject(trace.setSpan(context.active(), span), request, {
      set: (carrier, key, value) => carrier.setHeader(key, value),
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.end();
    };
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    });
    request.once('error', (err) => {
      failSpan(span, err);
      end();
    });
    request.once('close', end);
    addRequest(request, options);
  };
  return agent;
}
