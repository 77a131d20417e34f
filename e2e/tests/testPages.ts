import type { HomeCategory, LearnerTest } from '@lms/contract';
import { expect, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server.js';
import { apiCall, signIn } from './helpers.js';

/**
 * The test screens' browser tests (tests.spec.ts, test-taking.spec.ts): tests made through the API by
 * the administrator in the demo learner's course 'Эффективные переговоры', with known answers.
 */

export const LEARNER = 'learner@example.com';
export const SHOTS = '/tmp/shots';

export interface QuestionDef {
  text: string;
  answers: [string, boolean][];
}

export interface Made {
  id: number;
  name: string;
}

/** The id of the demo learner's negotiation course (assigned to them directly in the demo). */
export async function negotiationCourse(browser: Browser): Promise<number> {
  const page = await learner(browser);
  const home = (await (await page.request.get('/api/user/courses')).json()) as {
    result: { categories: HomeCategory[] };
  };
  const course = home.result.categories.flatMap((c) => c.items).find((c) => c.name === 'Эффективные переговоры');
  expect(course, 'the demo learner has the negotiation course').toBeTruthy();
  await page.context().close();
  return Number(course!.url.split('/').pop());
}

/** A published test in the course's first module, made by the administrator. */
export async function makeTest(
  adminPage: Page,
  courseId: number,
  name: string,
  settings: Record<string, unknown>,
  questions: QuestionDef[],
): Promise<Made> {
  const modules = (await apiCall(adminPage, 'GET', `/api/courses/${courseId}/modules`)) as {
    result: { items: { id: number }[] };
  };
  const moduleId = modules.result.items[0]!.id;
  const created = (await apiCall(adminPage, 'POST', '/api/courses/tests', {
    course_id: courseId,
    module_id: moduleId,
    name,
    ...settings,
  })) as { result: { item: { id: number } } };
  const id = created.result.item.id;
  const questionsJson = JSON.stringify(
    questions.map((q, qi) => ({
      id: `q${qi}`,
      type: 'text',
      title: q.text,
      question_text: q.text,
      sort_order: qi,
      answers: q.answers.map(([text, correct], ai) => ({ id: `a${ai}`, answer_text: text, is_correct: correct })),
    })),
  );
  await apiCall(adminPage, 'POST', `/api/admin/tests/${id}/questions`, undefined, { questions: questionsJson });
  await apiCall(adminPage, 'PUT', `/api/courses/${courseId}/tests/${id}`, { is_published: true });
  return { id, name };
}

/** What the learner's test page reads: the test and the server's clock. */
export async function learnerTestAnswer(
  page: Page,
  courseId: number,
  testId: number,
): Promise<{ test: LearnerTest; server_time: string }> {
  const response = await page.request.get(`/api/courses/${courseId}/tests/${testId}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { test: LearnerTest; server_time: string } }).result;
}

/** The demo learner, signed in, in a browser of the given size (desktop by default). */
export async function learner(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, LEARNER, DEMO_PASSWORD);
  return page;
}

/** A screenshot without the toasts over the header and with transitions finished. */
export async function shot(page: Page, name: string, fullPage = true) {
  const style = await page.addStyleTag({ content: '.mantine-Notification-root { visibility: hidden !important; }' });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage, animations: 'disabled' });
  await style.evaluate((element) => element.parentNode?.removeChild(element));
}

export const option = (page: Page, text: string) => page.getByRole('radio', { name: text, exact: true });
export const check = (page: Page, text: string) => page.getByRole('checkbox', { name: text, exact: true });
