import { describe, expect, it } from 'vitest';
import { scormManifest } from '../../../test/scormPackages.js';
import { parseManifest, type ScormManifest } from './manifest.js';
import { PackageRefused } from './unpack.js';

const NS_12 =
  'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"';
const NS_2004 =
  'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" ' +
  'xmlns:imsss="http://www.imsglobal.org/xsd/imsss"';

/** A manifest around `organization` and `resources` (inner XML), SCORM 2004 4th edition unless told. */
function manifest({
  organization,
  resources,
  schemaVersion = '2004 4th Edition',
  namespaces = NS_2004,
  attributes = '',
  extra = '',
}: {
  organization: string;
  resources: string;
  schemaVersion?: string | null;
  namespaces?: string;
  attributes?: string;
  extra?: string;
}): string {
  const metadata = schemaVersion === null ? '' : `<metadata><schemaversion>${schemaVersion}</schemaversion></metadata>`;
  return `<?xml version="1.0"?>
<manifest identifier="m" ${namespaces} ${attributes}>${metadata}
  <organizations default="org"><organization identifier="org">${organization}</organization></organizations>
  <resources>${resources}</resources>${extra}
</manifest>`;
}

/** One item and its resource. */
const oneSco = (item = '', resource = 'adlcp:scormType="sco" href="index.html"') =>
  ({
    organization: `<title>Курс</title><item identifier="i1" identifierref="r1"><title>Раздел</title>${item}</item>`,
    resources: `<resource identifier="r1" type="webcontent" ${resource}/>`,
  }) as const;

function refusal(xml: string): { problem: string; detail?: string } {
  try {
    parseManifest(xml);
  } catch (error) {
    if (error instanceof PackageRefused) {
      return error.detail === undefined ? { problem: error.problem } : { problem: error.problem, detail: error.detail };
    }
    throw error;
  }
  return { problem: 'parsed' };
}

const firstSco = (parsed: ScormManifest) => parsed.scos[0];

describe('the SCORM version', () => {
  it.each([
    ['1.2', undefined, { standard: '1.2', edition: null }],
    ['2004', '2nd', { standard: '2004', edition: '2nd' }],
    ['2004', '3rd', { standard: '2004', edition: '3rd' }],
    ['2004', '4th', { standard: '2004', edition: '4th' }],
  ] as const)('is read from schemaversion: SCORM %s %s', (standard, edition, expected) => {
    const xml = scormManifest({ standard, edition, title: 'Курс', scos: [{ id: 'sco-1', title: 'Раздел' }] });
    expect(parseManifest(xml)).toMatchObject({ ...expected, title: 'Курс' });
  });

  it('without schemaversion, is told by the ADL namespace; otherwise refused', () => {
    const parts = oneSco();
    expect(parseManifest(manifest({ ...parts, schemaVersion: null, namespaces: NS_12 }))).toMatchObject({
      standard: '1.2',
      edition: null,
    });
    expect(parseManifest(manifest({ ...parts, schemaVersion: null }))).toMatchObject({
      standard: '2004',
      edition: null,
    });
    const imsOnly = 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"';
    expect(refusal(manifest({ ...parts, schemaVersion: null, namespaces: imsOnly }))).toEqual({
      problem: 'unknown-version',
    });
    expect(refusal(manifest({ ...parts, schemaVersion: '1.1', namespaces: imsOnly }))).toEqual({
      problem: 'unknown-version',
      detail: '1.1',
    });
  });
});

describe('namespace prefixes and case', () => {
  it('reads a manifest in a default namespace without prefixes, lower-case scormtype', () => {
    const xml = `<manifest xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" identifier="m">
      <metadata><schemaversion>1.2</schemaversion></metadata>
      <organizations><organization identifier="o"><title>Без префиксов</title>
        <item identifier="i1" identifierref="r1"><title>Раздел</title><masteryscore>70</masteryscore>
          <datafromlms>mode=test</datafromlms></item>
      </organization></organizations>
      <resources><resource identifier="r1" type="webcontent" scormtype="sco" href="a.html"/></resources>
    </manifest>`;
    expect(parseManifest(xml)).toEqual({
      standard: '1.2',
      edition: null,
      title: 'Без префиксов',
      scos: [
        {
          identifier: 'i1',
          title: 'Раздел',
          launch: 'a.html',
          path: 'a.html',
          isSco: true,
          masteryScore: 70,
          scaledPassingScore: null,
          completionThreshold: null,
          dataFromLms: 'mode=test',
        },
      ],
    });
  });

  it('reads any prefix, on elements and attributes, in any case of the ADL names', () => {
    const xml = `<cp:manifest xmlns:cp="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:ADL="http://www.adlnet.org/xsd/adlcp_v1p3"
        xmlns:ss="http://www.imsglobal.org/xsd/imsss" identifier="m">
      <cp:organizations><cp:organization identifier="o"><cp:title>Префиксы</cp:title>
        <cp:item identifier="i1" identifierref="r1"><cp:title>Раздел</cp:title>
          <ADL:DataFromLMS>x=1</ADL:DataFromLMS>
          <ss:sequencing><ss:objectives><ss:primaryObjective satisfiedByMeasure="true">
            <ss:minNormalizedMeasure>0.6</ss:minNormalizedMeasure></ss:primaryObjective></ss:objectives></ss:sequencing>
        </cp:item>
      </cp:organization></cp:organizations>
      <cp:resources><cp:resource identifier="r1" ADL:SCORMTYPE="SCO" href="a.html"/></cp:resources>
    </cp:manifest>`;
    expect(firstSco(parseManifest(xml))).toMatchObject({ isSco: true, dataFromLms: 'x=1', scaledPassingScore: 0.6 });
    expect(parseManifest(xml).standard).toBe('2004');
  });
});

describe('the organization and its items', () => {
  it('lists launchable items depth-first in document order, hidden ones too, skipping folders and href-less resources', () => {
    const organization = `<title>Курс</title>
      <item identifier="module-1"><title>Модуль 1</title>
        <item identifier="a" identifierref="ra"><title>A</title></item>
        <item identifier="b" identifierref="rb" isvisible="false"><title>B</title>
          <item identifier="b1" identifierref="rb1"><title>B1</title></item>
        </item>
      </item>
      <item identifier="c" identifierref="rc"><title>C</title></item>
      <item identifier="shared" identifierref="r-files"><title>Общие файлы</title></item>`;
    const resource = (id: string, type = 'sco') =>
      `<resource identifier="${id}" adlcp:scormType="${type}" href="${id}.html"/>`;
    const resources =
      [resource('ra'), resource('rb', 'asset'), resource('rb1'), resource('rc')].join('') +
      '<resource identifier="r-files" adlcp:scormType="asset"><file href="common.js"/></resource>';
    const parsed = parseManifest(manifest({ organization, resources }));
    expect(parsed.scos.map((sco) => [sco.identifier, sco.title, sco.launch, sco.isSco])).toEqual([
      ['a', 'A', 'ra.html', true],
      ['b', 'B', 'rb.html', false],
      ['b1', 'B1', 'rb1.html', true],
      ['c', 'C', 'rc.html', true],
    ]);
  });

  it('takes the default organization, else the first', () => {
    const organizations = (defaultId: string) => `<?xml version="1.0"?><manifest ${NS_2004}>
      <metadata><schemaversion>2004 3rd Edition</schemaversion></metadata>
      <organizations default="${defaultId}">
        <organization identifier="first"><title>Первая</title><item identifier="i1" identifierref="r1"/></organization>
        <organization identifier="second"><title>Вторая</title><item identifier="i2" identifierref="r1"/></organization>
      </organizations>
      <resources><resource identifier="r1" adlcp:scormType="sco" href="a.html"/></resources></manifest>`;
    expect(parseManifest(organizations('second'))).toMatchObject({ title: 'Вторая', scos: [{ identifier: 'i2' }] });
    expect(parseManifest(organizations('missing'))).toMatchObject({ title: 'Первая', scos: [{ identifier: 'i1' }] });
  });

  it('titles the package by the organization, else the first item, else a default; an item by its identifier', () => {
    const resources = '<resource identifier="r1" adlcp:scormType="sco" href="a.html"/>';
    const titled = manifest({
      organization: '<item identifier="i1" identifierref="r1"><title>Урок</title></item>',
      resources,
    });
    expect(parseManifest(titled).title).toBe('Урок');
    const untitled = manifest({ organization: '<item identifier="i1" identifierref="r1"/>', resources });
    expect(parseManifest(untitled)).toMatchObject({ title: 'SCORM-пакет', scos: [{ title: 'i1' }] });
  });

  it('refuses an item that points at a missing resource, duplicate items, no launchable item', () => {
    const missing = manifest({ organization: '<item identifier="i1" identifierref="nowhere"/>', resources: '' });
    expect(refusal(missing)).toEqual({
      problem: 'bad-manifest',
      detail: 'item i1 refers to a missing resource nowhere',
    });
    const twice = manifest({
      organization: '<item identifier="i1" identifierref="r1"/><item identifier="i1" identifierref="r1"/>',
      resources: '<resource identifier="r1" href="a.html"/>',
    });
    expect(refusal(twice).problem).toBe('bad-manifest');
    const folderOnly = manifest({ organization: '<item identifier="i1"><title>Пусто</title></item>', resources: '' });
    expect(refusal(folderOnly)).toEqual({ problem: 'no-sco' });
    expect(refusal(`<manifest ${NS_12}><metadata><schemaversion>1.2</schemaversion></metadata></manifest>`)).toEqual({
      problem: 'no-sco',
    });
  });
});

describe('launch addresses', () => {
  const launchOf = (href: string, parameters?: string, attributes = '', resourceBase = '') => {
    const item = parameters === undefined ? '' : ` parameters="${parameters}"`;
    const xml = manifest({
      organization: `<item identifier="i1" identifierref="r1"${item}/>`,
      resources: `<resource identifier="r1" adlcp:scormType="sco" href="${href}" ${resourceBase}/>`,
      attributes,
    });
    const sco = firstSco(parseManifest(xml));
    return { launch: sco?.launch, path: sco?.path };
  };

  it.each([
    ['index.html', undefined, 'index.html'],
    ['index.html', '?lesson=2', 'index.html?lesson=2'],
    ['index.html', '&lesson=2', 'index.html?lesson=2'],
    ['index.html', 'lesson=2', 'index.html?lesson=2'],
    ['index.html?mode=a', '?lesson=2', 'index.html?mode=a&lesson=2'],
    ['index.html?mode=a', 'lesson=2&amp;x=1', 'index.html?mode=a&lesson=2&x=1'],
    ['index.html#top', 'lesson=2', 'index.html?lesson=2#top'],
    ['index.html', '#part-3', 'index.html#part-3'],
    ['index.html#top', '#part-3', 'index.html#top'],
    ['index.html', 'lesson=2#part-3', 'index.html?lesson=2#part-3'],
  ])('href %j with parameters %j launches %j', (href, parameters, launch) => {
    expect(launchOf(href, parameters)).toEqual({ launch, path: 'index.html' });
  });

  it('applies xml:base of the manifest, the resources and the resource', () => {
    const xml = manifest({
      organization: '<item identifier="i1" identifierref="r1"/><item identifier="i2" identifierref="r2"/>',
      resources:
        '<resource identifier="r1" adlcp:scormType="sco" xml:base="sco1/" href="index.html?x=1"/>' +
        '<resource identifier="r2" adlcp:scormType="sco" xml:base="../shared/" href="page.html"/>',
      attributes: 'xml:base="course/"',
    }).replace('<resources>', '<resources xml:base="content/">');
    expect(parseManifest(xml).scos.map(({ launch, path }) => ({ launch, path }))).toEqual([
      { launch: 'course/content/sco1/index.html?x=1', path: 'course/content/sco1/index.html' },
      { launch: 'course/shared/page.html', path: 'course/shared/page.html' },
    ]);
  });

  it('decodes and normalises the path, and encodes the launch address', () => {
    expect(launchOf('my%20sco/./a/../index.html')).toEqual({
      launch: 'my%20sco/index.html',
      path: 'my sco/index.html',
    });
    expect(launchOf('my sco/index.html')).toEqual({ launch: 'my%20sco/index.html', path: 'my sco/index.html' });
    expect(launchOf('sco\\index.html')).toEqual({ launch: 'sco/index.html', path: 'sco/index.html' });
    expect(launchOf('100%.html')).toEqual({ launch: '100%25.html', path: '100%.html' });
  });

  it.each([
    ['../outside.html'],
    ['sco/../../outside.html'],
    ['%2e%2e/outside.html'],
    ['a%2F..%2F..%2Foutside.html'],
    ['/etc/passwd'],
    ['http://example.com/sco.html'],
    ['javascript:alert(1)'],
  ])('refuses the href %j as leaving the package', (href) => {
    expect(() => launchOf(href)).toThrow(expect.objectContaining({ problem: 'unsafe-name' }));
  });

  it('refuses a base that leaves the package', () => {
    expect(() => launchOf('index.html', undefined, 'xml:base="../"')).toThrow(
      expect.objectContaining({ problem: 'unsafe-name' }),
    );
    expect(() => launchOf('index.html', undefined, '', 'xml:base="http://example.com/"')).toThrow(
      expect.objectContaining({ problem: 'unsafe-name' }),
    );
  });
});

describe('scores, thresholds and launch data', () => {
  it('reads SCORM 1.2 masteryscore and datafromlms', () => {
    const xml = scormManifest({
      standard: '1.2',
      scos: [
        { id: 's1', title: 'A', mastery: 80 },
        { id: 's2', title: 'B' },
      ],
    });
    expect(parseManifest(xml).scos.map((sco) => [sco.masteryScore, sco.scaledPassingScore])).toEqual([
      [80, null],
      [null, null],
    ]);
    const outOfRange = manifest({ ...oneSco('<adlcp:masteryscore>120</adlcp:masteryscore>'), schemaVersion: '1.2' });
    expect(firstSco(parseManifest(outOfRange))?.masteryScore).toBeNull();
  });

  it('reads the 2004 scaled passing score only when the primary objective is satisfied by measure', () => {
    const xml = scormManifest({ standard: '2004', scos: [{ id: 's1', title: 'A', scaledPassing: 0.8 }] });
    expect(firstSco(parseManifest(xml))).toMatchObject({ scaledPassingScore: 0.8, masteryScore: null });
    const objective = (attributes: string, measure: string) =>
      `<imsss:sequencing><imsss:objectives><imsss:primaryObjective ${attributes}>${measure}` +
      '</imsss:primaryObjective></imsss:objectives></imsss:sequencing>';
    const measured = (attributes: string, measure = '<imsss:minNormalizedMeasure>0.5</imsss:minNormalizedMeasure>') =>
      firstSco(parseManifest(manifest(oneSco(objective(attributes, measure)))))?.scaledPassingScore;
    expect(measured('satisfiedByMeasure="true"')).toBe(0.5);
    expect(measured('satisfiedByMeasure="false"')).toBeNull();
    expect(measured('')).toBeNull();
    // IMS Simple Sequencing's default measure.
    expect(measured('satisfiedByMeasure="true"', '')).toBe(1);
    expect(measured('satisfiedByMeasure="true"', '<imsss:minNormalizedMeasure>-0.5</imsss:minNormalizedMeasure>')).toBe(
      -0.5,
    );
  });

  it('reads the scaled passing score from a shared sequencing the item refers to', () => {
    const collection =
      '<imsss:sequencingCollection><imsss:sequencing ID="pass-70"><imsss:objectives>' +
      '<imsss:primaryObjective satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure>' +
      '</imsss:primaryObjective></imsss:objectives></imsss:sequencing></imsss:sequencingCollection>';
    const xml = manifest({ ...oneSco('<imsss:sequencing IDRef="pass-70"/>'), extra: collection });
    expect(firstSco(parseManifest(xml))?.scaledPassingScore).toBe(0.7);
  });

  it('reads the completion threshold as text (3rd edition) or minProgressMeasure (4th), and launch data', () => {
    const third = manifest({
      ...oneSco(
        '<adlcp:completionThreshold>0.75</adlcp:completionThreshold><adlcp:dataFromLMS>a=1</adlcp:dataFromLMS>',
      ),
      schemaVersion: '2004 3rd Edition',
    });
    expect(firstSco(parseManifest(third))).toMatchObject({ completionThreshold: 0.75, dataFromLms: 'a=1' });
    const fourth = manifest(oneSco('<adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.6"/>'));
    expect(firstSco(parseManifest(fourth))).toMatchObject({ completionThreshold: 0.6, dataFromLms: null });
  });
});

describe('XML that is not a manifest, or hostile', () => {
  it('refuses XML that is not well-formed, with the parser’s message', () => {
    const broken = refusal('<manifest><organizations></manifest>');
    expect(broken.problem).toBe('bad-manifest');
    expect(broken.detail).toMatch(/organizations/);
    expect(refusal('not xml at all').problem).toBe('bad-manifest');
    expect(refusal('<package/>')).toEqual({
      problem: 'bad-manifest',
      detail: 'the root element is <package>, not <manifest>',
    });
  });

  it('expands no DTD entity ("billion laughs") and reads no external one', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const dtd = `<!DOCTYPE manifest [<!ENTITY lol0 "lol">${laughs}]>`;
    const parts = oneSco();
    const bomb = manifest({ ...parts, organization: parts.organization.replace('Курс', '&lol9; &amp; &#1050;') });
    expect(parseManifest(bomb.replace('<manifest', `${dtd}<manifest`)).title).toBe('&lol9; & К');
    const external = `<!DOCTYPE manifest [<!ENTITY secret SYSTEM "file:///etc/passwd">]>`;
    const xxe = manifest({ ...parts, organization: parts.organization.replace('Курс', '&secret;') });
    expect(refusal(xxe.replace('<manifest', `${external}<manifest`)).problem).toBe('bad-manifest');
  });
});
