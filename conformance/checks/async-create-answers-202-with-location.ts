/**
 * x-rules: async-202-location — Creating a run or a batch answers 202 with a Location header that resolves
 * (GET on it answers 200 with that job, not another). Proved by fixtures/broken/accepted-without-location.ts and
 * fixtures/broken/location-points-at-another-run.ts. In passive mode it judges the 202s and polls of live traffic.
 */
import { carriesJob, judgeLiveLocations } from './live-polling';
import { reportScenario } from './polling';
import { startsOrPollsJob } from './inputs';
import { defineCheck } from './registry';

export const asyncCreateAnswers202WithLocation = defineCheck({
  id: 'async-create-answers-202-with-location',
  ruleId: 'async-202-location',
  title: 'Creating a run or a batch answers 202 with a Location that resolves.',
  fixture: 'accepted-without-location',
  covers: ['async-202-location: *', 'response-conformance: * 202'],
  inputs: {
    operations: startsOrPollsJob,
    reads: { parts: ['operation'], responses: ['202'], statuses: ['2XX'], headers: ['Location'] },
  },
  run: (ctx) => reportScenario(ctx, 'async-202-location'),
  traffic: { judge: judgeLiveLocations, covers: carriesJob },
});
