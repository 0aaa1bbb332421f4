export { compileAction, RequestContext } from './dispatch.js';
export { errorPage, notFound, renderError } from './error-handler.js';
export { type MiddlewareFactory, MiddlewareRegistry } from './middleware-registry.js';
export { toResponse, wantsJson } from './respond.js';
export {
  allMethods,
  type HttpMethod,
  type MiddlewareRef,
  Route,
  type RouteAction,
  type RouteHandler,
  toHonoPath,
} from './route.js';
export { type GroupAttributes, Router } from './router.js';
