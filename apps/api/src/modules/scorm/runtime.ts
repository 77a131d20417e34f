import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SCORM_FRAME_MESSAGE, type ScormStandard } from '@lms/contract';

/**
 * The SCORM runtime API in the package's own document (docs/decisions.md §SCORM content). The frame
 * runs on another origin (CONTENT_URL) or on none (a sandbox without same-origin), so the API cannot
 * live in the lesson page where a package would look for it in its parents: it is put into the SCO's
 * launch document itself, where the standard search (the window, then its parents, then the opener)
 * finds it first. scorm-again (a maintained implementation of both standards) keeps the data model;
 * commits go to the launch's own address as plain text (a simple request: no preflight, no cookie).
 */

const require = createRequire(import.meta.url);
const LIBRARIES: Record<ScormStandard, string> = {
  '1.2': readFileSync(require.resolve('scorm-again/scorm12/min'), 'utf8'),
  '2004': readFileSync(require.resolve('scorm-again/scorm2004/min'), 'utf8'),
};

export interface RuntimeConfig {
  standard: ScormStandard;
  /** The CMI the session starts from (cmi.ts `resumeCmi`). */
  cmi: Record<string, unknown>;
  /** Absolute address of the launch's commit endpoint. */
  commitUrl: string;
  /** The lesson page's origin: the only window told about commits. */
  parentOrigin: string;
}

/** JSON safe inside a script element (no `</script>`, no line separators). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The script of one launch: the library, then the API made, loaded and exposed under the standard's name. */
export function runtimeScript(config: RuntimeConfig): string {
  const glue = `(function () {
  var cfg = ${scriptJson(config)};
  var twelve = cfg.standard === '1.2';
  function told() {
    try { window.parent.postMessage({ type: ${scriptJson(SCORM_FRAME_MESSAGE)} }, cfg.parentOrigin); } catch (e) {}
  }
  var settings = {
    lmsCommitUrl: cfg.commitUrl,
    autocommit: true,
    autocommitSeconds: 15,
    dataCommitFormat: 'json',
    sendFullCommit: true,
    commitRequestDataType: 'text/plain;charset=UTF-8',
    logLevel: 4,
    xhrResponseHandler: function (xhr) {
      var answer = { result: false, errorCode: 101 };
      try { answer = JSON.parse(xhr.responseText); } catch (e) {}
      if (answer && (answer.result === true || answer.result === 'true')) told();
      return answer;
    }
  };
  var api = twelve ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
  api.loadFromJSON(cfg.cmi, '');
  if (twelve) window.API = api; else window.API_1484_11 = api;
  // A tab closed without LMSFinish / Terminate: what the package set since its last commit goes too.
  window.addEventListener('pagehide', function () {
    try {
      if (!api.isInitialized() || api.isTerminated()) return;
      var body = JSON.stringify(api.renderCommitCMI(true));
      navigator.sendBeacon(cfg.commitUrl, new Blob([body], { type: 'text/plain;charset=UTF-8' }));
    } catch (e) {}
  });
})();`;
  return `${LIBRARIES[config.standard]}\n${glue}\n`;
}

/**
 * The launch document with the runtime's script first in its head (before the package's own
 * scripts look for the API). A document without a head gets it at the start.
 */
export function injectRuntime(html: string, scriptUrl: string): string {
  const tag = `<script src="${scriptUrl.replace(/"/g, '&quot;')}"></script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag)
    return html.slice(0, htmlTag.index + htmlTag[0].length) + tag + html.slice(htmlTag.index + htmlTag[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + tag + html.slice(doctype[0].length);
  return tag + html;
}
