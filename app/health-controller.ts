/** `GET /health`: a load balancer's liveness probe. */
export class HealthController {
  invoke() {
    return { status: 'ok' };
  }
}
