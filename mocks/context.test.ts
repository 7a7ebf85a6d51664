import { compose, jsonResponse, type Answer, type Stage } from './context';
import { whenKnown } from './maybe-promise';
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
    let result: Answer | undefined;
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

describe('an answer known at once', () => {
  const known: Stage = () => jsonResponse(200, { at: 'once' });

  it('should go back up the stages at once, each settling it without a promise', () => {
    const seen: string[] = [];
    const around =
      (name: string): Stage =>
      (_ctx, next) =>
        whenKnown(next(), (response) => {
          seen.push(name);
          return response;
        });
    const answer = compose([around('a'), around('b'), known])(makeCtx());
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ status: 200, body: { at: 'once' } });
    expect(seen).toEqual(['b', 'a']);
  });

  it('should still reach a stage that renders errors as a rejection, whether the error was thrown or rejected', async () => {
    const rendered: unknown[] = [];
    const render: Stage = (_ctx, next) =>
      whenKnown(
        next(),
        (response) => response,
        (error) => (rendered.push((error as Error).message), jsonResponse(500, {})),
      );
    const throws: Stage = () => {
      throw new Error('thrown');
    };
    const rejects: Stage = () => Promise.reject(new Error('rejected'));
    await compose([render, throws])(makeCtx());
    await compose([render, rejects])(makeCtx());
    expect(rendered).toEqual(['thrown', 'rejected']);
  });

  it('should wait for an answer that is a promise, as before', async () => {
    const later: Stage = async () => jsonResponse(201, {});
    const answer = compose([(_ctx, next) => whenKnown(next(), (response) => response), later])(makeCtx());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toMatchObject({ status: 201 });
  });
});
