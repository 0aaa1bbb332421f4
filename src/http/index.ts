/**
 * `tollgate/http`: the Laravel-style router compiled onto Hono — routes, names, groups, resource
 * routes, controllers by class or string, middleware aliases, the route cache.
 */

export type { BodyLimitKind, BodyLimits, CspSources, HttpTimeouts } from './config.js';
export { httpConfig } from './config.js';
export type { ControllerMiddleware } from './controller-middleware.js';
export type { ControllerClass } from './controller-registry.js';
export { RequestContext } from './dispatch.js';
export type { MiddlewareFactory } from './middleware-registry.js';
export type { ObservedRequest, RequestObserver } from './request-observer.js';
export type { ResourceAction, ResourceOptions } from './resource.js';
export type { HttpMethod, MiddlewareRef, RouteAction, RouteDefinition, RouteHandler } from './route.js';
export { Route, toHonoPath } from './route.js';
export type { RouteCacheFile } from './route-cache.js';
export { RouteCacheError } from './route-cache.js';
export type { RouteListing } from './route-list.js';
export type { GroupAttributes } from './router.js';
export { Router } from './router.js';
export { SecurityHeaders } from './security-headers.js';
export { route, UrlGenerationError } from './url-generator.js';
