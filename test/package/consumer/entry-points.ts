// Every entry point of both packages, as a consumer imports them: with `strict`, NodeNext and no
// `skipLibCheck`, any type error inside their published declarations fails this project.

import * as sandbox from '@tollgate/sandbox';
import * as braintreeSandbox from '@tollgate/sandbox/braintree';
import * as stripeSandbox from '@tollgate/sandbox/stripe';
import * as tollgate from 'tollgate';
import * as auth from 'tollgate/auth';
import * as billing from 'tollgate/billing';
import * as database from 'tollgate/database';
import * as http from 'tollgate/http';
import * as oauth from 'tollgate/oauth';
import * as testing from 'tollgate/testing';
import * as views from 'tollgate/views';

export const entryPoints = {
  tollgate,
  auth,
  billing,
  database,
  http,
  oauth,
  testing,
  views,
  sandbox,
  braintreeSandbox,
  stripeSandbox,
};
