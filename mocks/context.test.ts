import { compose, jsonResponse, type Stage } from './context';
import { makeCtx } from './testing/ctx';

describe('compose', () => {
  it('should run the stages in order, down for the request and up for the response', async () => {
    const seen: string[] = [];
    const stage =
      (name: string): Stage =>
      async (_ctx, next) => {
        seen.push(`${name} down`);
        const response = await next();
        seen.push(`${name} up`);
        return response;
      };
    const response = await compose([stage('a'), stage('b'), async () => jsonResponse(200, {})])(makeCtx());
    expect(response.status).toBe(200);
    expect(seen).toEqual(['a down', 'b down', 'b up', 'a up']);
  });

  it('should refuse a stage that calls next() twice, so the rest never runs twice', async () => {
    let handled = 0;
    const twice: Stage = async function retryTwice(_ctx, next) {
      await next();
      return next();
    };
    const pipeline = compose([twice, async () => jsonResponse(200, { handled: ++handled })]);
    await expect(pipeline(makeCtx())).rejects.toThrow('stage 0 (retryTwice) called next() more than once');
    expect(handled).toBe(1);
  });

  it('should turn a plain stage that throws into a rejection, never a throw out of the pipeline', async () => {
    const plain: Stage = () => {
      throw new Error('refused');
    };
    const outer: Stage = (_ctx, next) => next();
    let result: Promise<unknown> | undefined;
    expect(() => (result = compose([outer, plain])(makeCtx()))).not.toThrow();
    await expect(result).rejects.toThrow('refused');
    await expect(compose([plain])(makeCtx())).rejects.toThrow('refused');
  });

  it('should reject when no stage answers', async () => {
    await expect(compose([async (_ctx, next) => next()])(makeCtx())).rejects.toThrow(
      'pipeline ended without a response',
    );
  });
});
