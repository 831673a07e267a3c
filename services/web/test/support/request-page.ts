import request from 'supertest';
import { appWith, COOKIE, CSRF, CURRENT, ORIGIN, page, REQUEST_ID as ID } from './fake-api.js';

type App = ReturnType<typeof appWith>;

/**
 * A form on the Request page that changes the Request by one API call, for the tests of that
 * form: the fake API, the page as shown, the form as the browser posts it, and the calls made.
 */
export const requestPageForm = (form: {
  /** Where the form posts, under `/app/requests/:id/`. */
  readonly action: string;
  /** The API call it makes, as `METHOD path`. */
  readonly call: string;
  /** What `GET /v1.1/requests/:id` answers unless a test says otherwise. */
  readonly shown: unknown;
  /** What the form carries besides what is typed (hidden inputs), each test's fields over them. */
  readonly hidden: Record<string, string>;
}) => {
  /** The signed-in user, the Request `shown`, and `answer` to the form's call. */
  const answers = (answer: unknown, shown: unknown = form.shown) => ({
    'GET /v1.1/sessions/current': CURRENT,
    [`GET /v1.1/requests/${ID}`]: shown,
    // Its History (ADR 3170): nothing recorded.
    [`GET /v1.1/requests/${ID}/events?order=desc&per_page=100`]: page([]),
    [form.call]: answer,
  });
  /** The Request page over `view`. */
  const show = async (view: unknown) =>
    (
      await request(appWith(answers(undefined, view)).callback)
        .get(`/app/requests/${ID}`)
        .set('Cookie', COOKIE)
        .expect(200)
    ).text;
  const post = (app: App, fields: Record<string, string>) =>
    request(app.callback)
      .post(`/app/requests/${ID}/${form.action}`)
      .set('Cookie', COOKIE)
      .set('Origin', ORIGIN)
      .type('form')
      .send({ _csrf: CSRF, ...form.hidden, ...fields });
  /** The calls `app` made to the API that the form calls. */
  const calls = (app: App) => app.calls.filter((c) => `${c.method} ${c.path}` === form.call);
  return { answers, show, post, calls };
};
