import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TARGETS, hostilePage, resumeText, scoPage } from '../../../test/scormPackages.js';

/**
 * The test builders' SCO pages are what browser tests of the player will click: their scripts run
 * here against a stand-in window, document and runtime API, so that a broken page shows up before
 * a browser test fails for a reason of its own.
 */

class FakeElement {
  textContent = '';
  readonly attributes = new Map<string, string>();
  private readonly listeners: (() => void)[] = [];
  addEventListener(_type: string, listener: () => void) {
    this.listeners.push(listener);
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  click() {
    for (const listener of this.listeners) listener();
  }
}

function fakeDocument() {
  const elements = new Map<string, FakeElement>();
  const element = (id: string) => {
    const found = elements.get(id) ?? new FakeElement();
    elements.set(id, found);
    return found;
  };
  return { element, document: { getElementById: element } };
}

/** A runtime API that keeps values and records each call as 'Name(arguments)'. */
function fakeApi(standard: '1.2' | '2004', initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  const calls: string[] = [];
  const names =
    standard === '1.2'
      ? ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish']
      : ['Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate'];
  const [initialize = '', get = '', set = '', commit = '', finish = ''] = names;
  const api: Record<string, (name: string, value?: string) => string> = {
    [initialize]: () => (calls.push(`${initialize}()`), 'true'),
    [get]: (name) => values.get(name) ?? '',
    [set]: (name, value = '') => (calls.push(`${set}(${name}, ${value})`), values.set(name, value), 'true'),
    [commit]: () => (calls.push(`${commit}()`), 'true'),
    [finish]: () => (calls.push(`${finish}()`), 'true'),
  };
  return { api, calls, values };
}

const scriptOf = (html: string) => /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';

/** Runs the page's script in a window whose own window, parent or opener holds the API (under `apiName`). */
function openSco(html: string, apiName: string, api: object | null, where: 'window' | 'parent' | 'opener' = 'parent') {
  const { element, document } = fakeDocument();
  const top: Record<string, unknown> = { document: {} };
  top.parent = top;
  const window: Record<string, unknown> = { document, parent: where === 'window' ? undefined : top, opener: null };
  if (where === 'window') window.parent = window;
  if (api && where === 'window') window[apiName] = api;
  if (api && where === 'parent') top[apiName] = api;
  if (api && where === 'opener') window.opener = { [apiName]: api, parent: null };
  runInNewContext(scriptOf(html), { window, document });
  return element;
}

describe('the test SCO page', () => {
  it('SCORM 1.2: finds API in the parent, shows what it resumed, saves progress counting on, scores, finishes', () => {
    const { api, calls } = fakeApi('1.2', { 'cmi.core.lesson_location': 'page-1', 'cmi.suspend_data': 'state-4' });
    const element = openSco(scoPage('1.2', { title: 'Раздел' }), 'API', api);
    expect(element('status').textContent).toBe('initialized');
    expect(element('resume').textContent).toBe(resumeText('page-1', 'state-4'));
    calls.length = 0;
    element('progress').click();
    expect(calls).toEqual([
      'LMSSetValue(cmi.core.lesson_location, page-2)',
      'LMSSetValue(cmi.suspend_data, state-5)',
      'LMSSetValue(cmi.core.exit, suspend)',
      'LMSCommit()',
    ]);
    expect(element('status').textContent).toBe('saved: state-5');
    calls.length = 0;
    element('score').click();
    expect(calls).toEqual([
      'LMSSetValue(cmi.core.score.raw, 85)',
      'LMSSetValue(cmi.core.score.min, 0)',
      'LMSSetValue(cmi.core.score.max, 100)',
      'LMSSetValue(cmi.core.lesson_status, passed)',
      'LMSCommit()',
    ]);
    element('finish').click();
    expect(calls.at(-1)).toBe('LMSFinish()');
    expect(element('status').textContent).toBe('finished');
  });

  it('SCORM 1.2 with a mastery score: only the raw score and completed, the LMS decides', () => {
    const { api, calls } = fakeApi('1.2', {});
    const element = openSco(scoPage('1.2', { title: 'Раздел', mastery: 80 }), 'API', api);
    expect(element('resume').textContent).toBe(resumeText('', ''));
    element('progress').click();
    expect(calls).toContain('LMSSetValue(cmi.suspend_data, state-1)');
    calls.length = 0;
    element('score').click();
    expect(calls).toEqual([
      'LMSSetValue(cmi.core.score.raw, 85)',
      'LMSSetValue(cmi.core.lesson_status, completed)',
      'LMSCommit()',
    ]);
  });

  it('SCORM 2004: API_1484_11 in its own window; scaled score, completed and passed; Terminate', () => {
    const { api, calls } = fakeApi('2004', { 'cmi.location': 'page-2', 'cmi.suspend_data': 'state-1' });
    const element = openSco(scoPage('2004', { title: 'Раздел' }), 'API_1484_11', api, 'window');
    expect(element('resume').textContent).toBe(resumeText('page-2', 'state-1'));
    element('progress').click();
    expect(calls).toContain('SetValue(cmi.suspend_data, state-2)');
    expect(calls).toContain('SetValue(cmi.exit, suspend)');
    calls.length = 0;
    element('score').click();
    expect(calls).toEqual([
      'SetValue(cmi.score.scaled, 0.85)',
      'SetValue(cmi.score.raw, 85)',
      'SetValue(cmi.score.min, 0)',
      'SetValue(cmi.score.max, 100)',
      'SetValue(cmi.completion_status, completed)',
      'SetValue(cmi.success_status, passed)',
      'Commit()',
    ]);
    element('finish').click();
    expect(calls.at(-1)).toBe('Terminate()');
  });

  it('looks in the opener when no parent has the API, and says when there is none', () => {
    const { api } = fakeApi('2004', {});
    expect(openSco(scoPage('2004', { title: 'A' }), 'API_1484_11', api, 'opener')('status').textContent).toBe(
      'initialized',
    );
    expect(openSco(scoPage('2004', { title: 'A' }), 'API_1484_11', null)('status').textContent).toBe('api: not found');
    // A 1.2 page does not take a 2004 API.
    expect(openSco(scoPage('1.2', { title: 'A' }), 'API_1484_11', api)('status').textContent).toBe('api: not found');
  });
});

describe('the hostile SCO page', () => {
  const blocked = () => {
    throw new Error('SecurityError');
  };

  it('reports each try as blocked in a sandbox that blocks it', async () => {
    const { element, document } = fakeDocument();
    Object.defineProperty(document, 'cookie', { get: blocked });
    const parent = {};
    Object.defineProperty(parent, 'document', { get: blocked });
    const top = {};
    Object.defineProperty(top, 'location', { set: blocked });
    const window: Record<string, unknown> = { document, parent, top };
    Object.defineProperty(window, 'localStorage', { get: blocked });
    const fetched: unknown[] = [];
    const fetch = (...args: unknown[]) => (fetched.push(args), Promise.reject(new TypeError('Failed to fetch')));
    runInNewContext(scriptOf(hostilePage()), { window, document, fetch });
    await window.hostileChecks;
    expect(element('report').textContent.split('\n')).toEqual([
      'cookie: blocked',
      'storage: blocked',
      'parent: blocked',
      'api: blocked',
      'top: blocked',
    ]);
    expect(element('report').attributes.get('data-done')).toBe('true');
    expect(fetched).toEqual([[HOSTILE_TARGETS.api, { credentials: 'include' }]]);
  });

  it('reports what it could do where nothing blocks it', async () => {
    const { element, document } = fakeDocument();
    Object.assign(document, { cookie: 'session=1' });
    const stored = new Map<string, string>();
    const top = { location: '' };
    const window: Record<string, unknown> = {
      document,
      parent: { document: {} },
      top,
      localStorage: { setItem: (key: string, value: string) => stored.set(key, value) },
    };
    const fetch = () => Promise.resolve({ status: 401 });
    runInNewContext(scriptOf(hostilePage()), { window, document, fetch });
    await window.hostileChecks;
    expect(element('report').textContent.split('\n')).toEqual([
      'cookie: visible',
      'storage: available',
      'parent: readable',
      'api: 401',
      'top: tried',
    ]);
    expect(top.location).toBe(HOSTILE_TARGETS.top);
  });
});
