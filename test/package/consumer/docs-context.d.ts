// The names the documentation's code blocks take as given, as an application that follows the docs
// has them: its application, router and request context, its user model and a subscription of it,
// and its own controllers. Everything from the packages a block must import itself.
import type { Context, MiddlewareHandler } from 'hono';
import type { Application, HasApiTokens, ServiceProvider, TollgateConfig, User } from 'tollgate';
import type { Billable, Subscription } from 'tollgate/billing';
import type { Router } from 'tollgate/http';
import type { ClientRecord } from 'tollgate/oauth';

declare class AppUserModel extends Billable(HasApiTokens(User)) {}

/** An application controller: the resource actions and a few more. */
declare class ExampleController {
  index(): unknown;
  show(): unknown;
  create(): unknown;
  store(): unknown;
  edit(): unknown;
  update(): unknown;
  destroy(): unknown;
  status(): unknown;
  popular(): unknown;
  recent(): unknown;
}

declare global {
  const app: Application;
  const router: Router;
  /** `app.router`, as docs/routing.md names it. */
  const r: Router;
  const c: Context;
  const config: TollgateConfig;
  const appUrl: string;
  const user: AppUserModel;
  /** An OAuth client of the application. */
  const client: ClientRecord;
  type AppUser = AppUserModel;
  const sub: Subscription;
  /** A card token, PaymentMethod id or Braintree nonce from the checkout form. */
  const token: string;
  const paymentMethod: string;
  const nonce: string;
  const invoiceId: string;
  const form: { request_key: string };
  const successUrl: string;
  const cancelUrl: string;
  const handler: (c: Context) => unknown;
  /** The application's own routes, a service provider (docs/routing.md). */
  const routes: ServiceProvider;
  /** The application's own functions the examples call. */
  const mail: (userId: number | undefined, text: string) => Promise<void>;
  const bearerToken: (c: Context) => string | undefined;
  const verify: (token: string) => Promise<User | undefined>;
  const otpIsValid: (clientId: string, otp: string) => Promise<boolean>;
  const handleMcp: (call: unknown, user: User | undefined) => Promise<unknown>;
  const requireUser: MiddlewareHandler;
  const rateLimit: (max: number) => MiddlewareHandler;

  class PhotoController extends ExampleController {}
  class FotoController extends ExampleController {}
  class VideoController extends ExampleController {}
  class CommentController extends ExampleController {}
  class UserController extends ExampleController {}
  class OrderController extends ExampleController {}
  class OrdersController extends ExampleController {}
  class ProfileController extends ExampleController {}
  class TagController extends ExampleController {}
  class AccountController extends ExampleController {}
  class ReportController extends ExampleController {}
  class ReportsController extends ExampleController {}
  class ExportController extends ExampleController {}
  class ExportsController extends ExampleController {}
  class TokenController extends ExampleController {}
  class WebhookController extends ExampleController {}
  class CommentRepository {
    find(post: string, comment: string): Promise<unknown>;
  }
  class Gate {}
  class ShowDashboard {
    invoke(): unknown;
  }
}
