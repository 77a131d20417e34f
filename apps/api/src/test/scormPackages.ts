import { writeFile } from 'node:fs/promises';
import yazl from 'yazl';
import { deflatedZeros, makeZip, type TestZipEntry } from './zipFiles.js';

/**
 * SCORM packages for tests: real archives (written by yazl, as an authoring tool would) with a
 * valid manifest and small SCO pages that drive the runtime API from buttons, a hostile SCO that
 * probes the frame it runs in, and hand-made broken archives.
 *
 * The test SCO page (`scoPage`) finds the API the standard way (this window, its parents, then
 * the opener's), initialises, shows in `#resume` what it resumed from (`resumeText`), and has:
 * - `#progress`: location 'page-2', suspend data 'state-<n>' (n counts on from the resumed
 *   state), exit 'suspend' (so the LMS keeps the data), commit;
 * - `#score`: raw 85 of 0..100 (2004: scaled 0.85, completed and passed); SCORM 1.2 sets
 *   'passed', or with a mastery score only the raw score and 'completed' (the LMS then decides);
 * - `#finish`: LMSFinish / Terminate.
 * `#status` tells what happened last: 'api: not found', 'initialized', 'saved: state-<n>', 'scored', 'finished'.
 */

export type TestScormStandard = '1.2' | '2004';
export type TestScormEdition = '2nd' | '3rd' | '4th';

export interface TestSco {
  /** The item's identifier (its resource is `res-<id>`). */
  id: string;
  title: string;
  /** The launch file inside the package (default `<id>/index.html`). */
  file?: string;
  /** SCORM 1.2 adlcp:masteryscore (0..100). */
  mastery?: number;
  /** SCORM 2004 primary objective's minNormalizedMeasure, satisfied by measure (-1..1). */
  scaledPassing?: number;
  /** The launch file's content instead of the test SCO page. */
  html?: string;
}

export interface TestScormPackage {
  standard: TestScormStandard;
  /** SCORM 2004 only; default '4th'. */
  edition?: TestScormEdition;
  /** The organization's title (default 'Тестовый курс'). */
  title?: string;
  scos: readonly TestSco[];
  /** Put the package in this folder of the archive, as zipping a folder does. */
  topFolder?: string;
  /** More files, by path inside the package (inside `topFolder` when given). */
  extraFiles?: Readonly<Record<string, string | Buffer>>;
}

/** What the test SCO shows in `#resume` for the location and suspend data it read at start. */
export const resumeText = (location: string, suspendData: string) =>
  `location=${location}; suspend_data=${suspendData}`;

/** The test SCO's launch file when none is given. */
export const scoFile = (sco: TestSco) => sco.file ?? `${sco.id}/index.html`;

const NAMESPACES: Record<TestScormStandard, string> = {
  '1.2': [
    'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"',
    'xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    'xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd"',
  ].join(' '),
  '2004': [
    'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"',
    'xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"',
    'xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"',
    'xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"',
    'xmlns:imsss="http://www.imsglobal.org/xsd/imsss"',
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    'xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd"',
  ].join(' '),
};

const SCHEMA_VERSIONS: Record<TestScormEdition, string> = {
  '2nd': 'CAM 1.3',
  '3rd': '2004 3rd Edition',
  '4th': '2004 4th Edition',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const hrefOf = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** A valid imsmanifest.xml with the namespaces and schemaversion of the standard and edition. */
export function scormManifest(options: Omit<TestScormPackage, 'extraFiles' | 'topFolder'>): string {
  const { standard, scos } = options;
  const schemaVersion = standard === '1.2' ? '1.2' : SCHEMA_VERSIONS[options.edition ?? '4th'];
  const items = scos.map((sco) => {
    const scores =
      standard === '1.2'
        ? sco.mastery === undefined
          ? ''
          : `<adlcp:masteryscore>${sco.mastery}</adlcp:masteryscore>`
        : sco.scaledPassing === undefined
          ? ''
          : '<imsss:sequencing><imsss:objectives>' +
            '<imsss:primaryObjective objectiveID="passing" satisfiedByMeasure="true">' +
            `<imsss:minNormalizedMeasure>${sco.scaledPassing}</imsss:minNormalizedMeasure>` +
            '</imsss:primaryObjective></imsss:objectives></imsss:sequencing>';
    return (
      `      <item identifier="${escapeXml(sco.id)}" identifierref="res-${escapeXml(sco.id)}">\n` +
      `        <title>${escapeXml(sco.title)}</title>${scores}\n      </item>`
    );
  });
  const scormType = standard === '1.2' ? 'adlcp:scormtype' : 'adlcp:scormType';
  const resources = scos.map((sco) => {
    const href = escapeXml(hrefOf(scoFile(sco)));
    return (
      `    <resource identifier="res-${escapeXml(sco.id)}" type="webcontent" ${scormType}="sco" href="${href}">` +
      `<file href="${href}"/></resource>`
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<manifest identifier="test-package" version="1" ${NAMESPACES[standard]}>`,
    `  <metadata><schema>ADL SCORM</schema><schemaversion>${schemaVersion}</schemaversion></metadata>`,
    '  <organizations default="test-organization">',
    '    <organization identifier="test-organization">',
    `      <title>${escapeXml(options.title ?? 'Тестовый курс')}</title>`,
    ...items,
    '    </organization>',
    '  </organizations>',
    '  <resources>',
    ...resources,
    '  </resources>',
    '</manifest>',
    '',
  ].join('\n');
}

/** A script that finds the API the way ADL's sample does; `API_NAME` is defined before it. */
const FIND_API = `
  function findApiFrom(win) {
    for (var steps = 0; win && steps < 500; steps++) {
      try { if (win[API_NAME]) return win[API_NAME]; } catch (e) { /* a window of another origin */ }
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  function findApi() {
    var api = findApiFrom(window);
    try { if (!api && window.opener) api = findApiFrom(window.opener); } catch (e) { /* closed or foreign */ }
    return api;
  }`;

const page = (title: string, body: string, script: string) =>
  `<!doctype html>\n<html lang="ru">\n<head><meta charset="utf-8"><title>${escapeXml(title)}</title></head>\n<body>\n` +
  `<h1>${escapeXml(title)}</h1>\n${body}\n<script>\n(function () {\n${script}\n})();\n</script>\n</body>\n</html>\n`;

/** The test SCO page (see the module's comment) for the standard; `mastery` changes what `#score` sets (1.2). */
export function scoPage(standard: TestScormStandard, sco: Pick<TestSco, 'title' | 'mastery'>): string {
  const v12 = standard === '1.2';
  const names = v12
    ? ['API', 'LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish']
    : ['API_1484_11', 'Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate'];
  const field = v12
    ? { location: 'cmi.core.lesson_location', exit: 'cmi.core.exit', score: 'cmi.core.score' }
    : { location: 'cmi.location', exit: 'cmi.exit', score: 'cmi.score' };
  const scoring = v12
    ? sco.mastery === undefined
      ? [
          ['raw', '85'],
          ['min', '0'],
          ['max', '100'],
        ]
          .map(([key, value]) => `set('${field.score}.${key}', '${value}');`)
          .join(' ') + ` set('cmi.core.lesson_status', 'passed');`
      : `set('${field.score}.raw', '85'); set('cmi.core.lesson_status', 'completed');`
    : [
        ['scaled', '0.85'],
        ['raw', '85'],
        ['min', '0'],
        ['max', '100'],
      ]
        .map(([key, value]) => `set('${field.score}.${key}', '${value}');`)
        .join(' ') + ` set('cmi.completion_status', 'completed'); set('cmi.success_status', 'passed');`;
  const body = [
    '<p id="status">loading</p>',
    '<p id="resume"></p>',
    '<button id="progress" type="button">Дальше</button>',
    '<button id="score" type="button">Ответить</button>',
    '<button id="finish" type="button">Завершить</button>',
  ].join('\n');
  const script = `
  var API_NAME = '${names[0]}';${FIND_API}
  var statusLine = document.getElementById('status');
  var api = findApi();
  if (!api) { statusLine.textContent = 'api: not found'; return; }
  function set(name, value) { return String(api.${names[3]}(name, value)); }
  statusLine.textContent = String(api.${names[1]}('')) === 'true' ? 'initialized' : 'initialize failed';
  var resumedLocation = String(api.${names[2]}('${field.location}'));
  var suspendData = String(api.${names[2]}('cmi.suspend_data'));
  document.getElementById('resume').textContent = 'location=' + resumedLocation + '; suspend_data=' + suspendData;
  var resumed = /^state-(\\d+)$/.exec(suspendData);
  var state = resumed ? Number(resumed[1]) : 0;
  document.getElementById('progress').addEventListener('click', function () {
    state += 1;
    set('${field.location}', 'page-2'); set('cmi.suspend_data', 'state-' + state); set('${field.exit}', 'suspend');
    api.${names[4]}('');
    statusLine.textContent = 'saved: state-' + state;
  });
  document.getElementById('score').addEventListener('click', function () {
    ${scoring}
    api.${names[4]}('');
    statusLine.textContent = 'scored';
  });
  document.getElementById('finish').addEventListener('click', function () {
    api.${names[5]}('');
    statusLine.textContent = 'finished';
  });`;
  return page(sco.title, body, script);
}

/** The address the hostile SCO asks with the learner's cookies, and where it tries to send the top window. */
export const HOSTILE_TARGETS = { api: '/api/check-auth', top: '/?hijacked-by-package' } as const;

/**
 * A SCO page that tries what a package must not be able to do from its frame, and writes one line
 * per try into `#report`: 'cookie: blocked|empty|visible', 'storage: blocked|available',
 * 'parent: blocked|readable|none', 'api: <status>|blocked', then 'top: blocked|tried' ('tried':
 * no exception — check the top page's address). `#report` gets data-done="true" at the end, and
 * `window.hostileChecks` is the promise of it.
 */
export function hostilePage(): string {
  const script = `
  var report = document.getElementById('report');
  var lines = [];
  function note(line) { lines.push(line); report.textContent = lines.join('\\n'); }
  async function run() {
    try { note(document.cookie ? 'cookie: visible' : 'cookie: empty'); } catch (e) { note('cookie: blocked'); }
    try { window.localStorage.setItem('hostile-package', '1'); note('storage: available'); } catch (e) { note('storage: blocked'); }
    try { note(window.parent !== window && window.parent.document ? 'parent: readable' : 'parent: none'); }
    catch (e) { note('parent: blocked'); }
    try {
      var response = await fetch('${HOSTILE_TARGETS.api}', { credentials: 'include' });
      note('api: ' + response.status);
    } catch (e) { note('api: blocked'); }
    try { window.top.location = '${HOSTILE_TARGETS.top}'; note('top: tried'); } catch (e) { note('top: blocked'); }
    report.setAttribute('data-done', 'true');
  }
  window.hostileChecks = run();`;
  return page('Недобросовестный пакет', '<pre id="report"></pre>', script);
}

/** The files of a package, by path in the archive. */
export function scormPackageFiles(options: TestScormPackage): Map<string, string | Buffer> {
  const prefix = options.topFolder ? `${options.topFolder}/` : '';
  const files = new Map<string, string | Buffer>([[`${prefix}imsmanifest.xml`, scormManifest(options)]]);
  for (const sco of options.scos) files.set(prefix + scoFile(sco), sco.html ?? scoPage(options.standard, sco));
  for (const [path, content] of Object.entries(options.extraFiles ?? {})) files.set(prefix + path, content);
  return files;
}

/** Fixed so that the same package is the same bytes. */
const ARCHIVED_AT = new Date('2026-01-15T09:00:00Z');

/** A ZIP archive of the files (by path), as an archiver writes it. */
export async function zipFiles(files: ReadonlyMap<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [path, content] of files) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), path, { mtime: ARCHIVED_AT });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A valid SCORM package (see the module's comment for the test SCO page). */
export function scormPackage(options: TestScormPackage): Promise<Buffer> {
  return zipFiles(scormPackageFiles(options));
}

/** Writes the package to `path` (an upload's file, or what `unpackPackage` reads) and returns the path. */
export async function scormPackageFile(path: string, options: TestScormPackage): Promise<string> {
  await writeFile(path, await scormPackage(options));
  return path;
}

/** A package whose one SCO is `hostilePage`. */
export function hostilePackage(standard: TestScormStandard = '2004'): Promise<Buffer> {
  return scormPackage({
    standard,
    title: 'Недобросовестный пакет',
    scos: [{ id: 'hostile', title: 'Проверка изоляции', html: hostilePage() }],
  });
}

const text = (content: string) => Buffer.from(content, 'utf8');
const ONE_SCO: TestSco = { id: 'sco-1', title: 'Раздел 1' };
/** A valid SCORM 1.2 package of one SCO, its files under `prefix`. */
const validEntries = (prefix = ''): TestZipEntry[] => [
  { name: `${prefix}imsmanifest.xml`, data: text(scormManifest({ standard: '1.2', scos: [ONE_SCO] })) },
  { name: prefix + scoFile(ONE_SCO), data: text(scoPage('1.2', ONE_SCO)) },
];

/** Hand-made archives a package reader must refuse (or, for `inTopFolderWithMacLeftovers`, accept). */
export const badPackages = {
  /** An entry that climbs out of the folder it is unpacked into: 'unsafe-name'. */
  zipSlip: () => makeZip([...validEntries(), { name: '../evil.html', data: text('<p>evil</p>') }]),
  /** An absolute path: 'unsafe-name'. */
  absolutePath: () => makeZip([...validEntries(), { name: '/tmp/evil.html', data: text('<p>evil</p>') }]),
  /** A symbolic link to a file outside the package: 'link'. */
  symlink: () => makeZip([...validEntries(), { name: 'passwd', data: text('/etc/passwd'), unixMode: 0o120777 }]),
  /** An encrypted entry: 'encrypted'. */
  encrypted: () => makeZip([...validEntries(), { name: 'secret.html', data: text('x'), flags: 1 }]),
  /**
   * `zeros` bytes of zeros deflated (300 MB by default: an archive of about 300 KB), in a package
   * whose headers claim `claimedSize` (default: 1 KiB — they lie): 'too-large' under a smaller limit.
   */
  zipBomb: ({ zeros = 300 * 1024 * 1024, claimedSize = 1024 }: { zeros?: number; claimedSize?: number } = {}) =>
    makeZip([
      ...validEntries(),
      { name: 'media/video.mp4', data: Buffer.alloc(0), compressed: deflatedZeros(zeros), claimedSize },
    ]),
  /** imsmanifest.xml that is not well-formed XML: 'bad-manifest'. */
  brokenManifest: () =>
    makeZip([
      { name: 'imsmanifest.xml', data: text('<manifest><organizations></manifest>') },
      { name: 'index.html', data: text('<p>x</p>') },
    ]),
  /** Files without imsmanifest.xml: 'no-manifest'. */
  noManifest: () => makeZip([{ name: 'index.html', data: text('<p>x</p>') }]),
  /** The manifest launches a file the archive does not have: 'missing-file'. */
  missingLaunchFile: () => makeZip(validEntries().slice(0, 1)),
  /** The manifest two folders down: not where a package has it ('no-manifest'). */
  manifestTooDeep: () => makeZip(validEntries('Outer/Course/')),
  /** A valid package in one folder beside what macOS's archiver adds: accepted, root 'Course/'. */
  inTopFolderWithMacLeftovers: () =>
    makeZip([
      ...validEntries('Course/'),
      { name: '__MACOSX/Course/._imsmanifest.xml', data: text('resource fork') },
      { name: '.DS_Store', data: text('finder') },
    ]),
};
