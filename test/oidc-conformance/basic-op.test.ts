import { describeBasicOp } from './basic-op.case.js';

describeBasicOp('query');
