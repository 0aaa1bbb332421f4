import { ANY_ENGINE } from '../support/engines.js';
import { describeBasicOp } from './basic-op.case.js';

describeBasicOp('query', ANY_ENGINE);
