/** Hostile input on the POST /api/runs/* writes (hostile-input.test.ts takes the other routes). */
import { hostileRouteTests } from '../helpers/hostile-route-tests.js';
import { isRunWrite } from '../helpers/route-requests.js';

await hostileRouteTests(isRunWrite);
