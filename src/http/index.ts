export { type CompileOptions, compileRoutes } from './compile.js';
export {
  type ControllerMiddleware,
  controllerMiddlewareFor,
} from './controller-middleware.js';
export { type ControllerClass, ControllerRegistry, normalizeControllerName } from './controller-registry.js';
export {
  compileAction,
  invokeMethodOf,
  parseActionString,
  RequestContext,
  type RouteEndpoint,
} from './dispatch.js';
export { errorPage, notFound, renderError } from './error-handler.js';
export { spoofMethod, withMethodSpoofing } from './method-spoofing.js';
export { type MiddlewareFactory, MiddlewareRegistry } from './middleware-registry.js';
export {
  type ApiResourceAction,
  apiResourceActions,
  type ResourceAction,
  type ResourceDefaults,
  type ResourceOptions,
  ResourceRegistration,
  resourceActions,
  resourceParameter,
} from './resource.js';
export { toResponse, wantsJson } from './respond.js';
export {
  allMethods,
  type HttpMethod,
  type MiddlewareRef,
  Route,
  type RouteAction,
  type RouteDefinition,
  type RouteHandler,
  toHonoPath,
} from './route.js';
export {
  clearRouteCache,
  RouteCacheError,
  type RouteCacheFile,
  readRouteCache,
  serializeRoutes,
  writeRouteCache,
} from './route-cache.js';
export { formatRouteTable, listRoutes, type RouteListing } from './route-list.js';
export { type GroupAttributes, Router } from './router.js';
export {
  type RouteParam,
  route,
  UrlGenerationError,
  type UrlOptions,
  type UrlParams,
} from './url-generator.js';
