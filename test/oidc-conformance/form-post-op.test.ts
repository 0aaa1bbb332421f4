import { describeBasicOp } from './basic-op.case.js';

// The Form Post Basic OP plan is the Basic OP list with response_mode=form_post.
describeBasicOp('form_post');
