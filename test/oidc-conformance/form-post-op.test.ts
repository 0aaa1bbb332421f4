import { ANY_ENGINE } from '../support/engines.js';
import { describeBasicOp } from './basic-op.case.js';

// The Form Post Basic OP plan is the Basic OP list with response_mode=form_post.
describeBasicOp('form_post', ANY_ENGINE);
