import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SCORM_LIMITS, type ScormStandard } from '@lms/contract';
import type { StoredSco } from '../../../db/schema.js';
import { resolveLaunch } from './launch.js';
import { PackageRefused } from './unpack.js';
import { childNamed, childrenNamed, childText, parseXmlTree, type XmlElement } from './xmlTree.js';

/**
 * What an LMS needs from a package's imsmanifest.xml: the SCORM version, the title, and the
 * launchable items of the organization in the order a learner meets them, each with its launch
 * address and the values the manifest gives the runtime (mastery score, passing score, completion
 * threshold, launch data).
 */

export interface ScormManifest {
  standard: ScormStandard;
  /** '2nd', '3rd', '4th' for SCORM 2004 when the manifest's schemaversion tells; null otherwise. */
  edition: string | null;
  title: string;
  scos: ScormSco[];
}

/** A launchable item as stored with its package version (db/schema.ts, `scorm_packages.scos`). */
export type ScormSco = StoredSco;

const MANIFEST = 'imsmanifest.xml';
/** What archivers on macOS add beside the package's folder. */
const ARCHIVER_LEFTOVERS = new Set(['__MACOSX', '.DS_Store']);
const FALLBACK_TITLE = 'SCORM-пакет';

/** Reads a manifest; throws `PackageRefused` ('bad-manifest', 'unknown-version', 'no-sco', 'unsafe-name'). */
export function parseManifest(xml: string): ScormManifest {
  const { root: manifest, namespaces } = parseXmlTree(xml);
  if (manifest.name !== 'manifest') {
    throw new PackageRefused('bad-manifest', `the root element is <${manifest.name}>, not <manifest>`);
  }
  const { standard, edition } = detectVersion(manifest, namespaces);
  const resourcesElement = childNamed(manifest, 'resources');
  const resources = new Map<string, XmlElement>();
  for (const resource of resourcesElement ? childrenNamed(resourcesElement, 'resource') : []) {
    const id = resource.attributes.get('identifier');
    if (id !== undefined && !resources.has(id)) resources.set(id, resource);
  }
  const organization = chooseOrganization(manifest);
  const items = organization ? flattenItems(organization) : [];
  const sequencingById = sequencingCollection(manifest);
  const baseOf = (element: XmlElement | undefined): string[] => {
    const base = element?.attributes.get('base');
    return base === undefined ? [] : [base];
  };
  const outerBases = [...baseOf(manifest), ...baseOf(resourcesElement)];

  const scos: ScormSco[] = [];
  for (const item of items) {
    const resourceId = item.attributes.get('identifierref');
    if (resourceId === undefined) continue;
    const identifier = item.attributes.get('identifier');
    const resource = resources.get(resourceId);
    if (!resource) {
      throw new PackageRefused('bad-manifest', `item ${identifier ?? '?'} refers to a missing resource ${resourceId}`);
    }
    const href = resource.attributes.get('href');
    // A resource without href is a set of files that other resources use, not something to launch.
    if (!href) continue;
    if (!identifier) throw new PackageRefused('bad-manifest', `an item for resource ${resourceId} has no identifier`);
    if (scos.some((sco) => sco.identifier === identifier)) {
      throw new PackageRefused('bad-manifest', `two items are identified as ${identifier}`);
    }
    const bases = [...outerBases, ...baseOf(resource)];
    const { launch, path } = resolveLaunch(bases, href, item.attributes.get('parameters') ?? null);
    scos.push({
      identifier,
      title: childText(item, 'title') ?? identifier,
      launch,
      path,
      isSco: resource.attributes.get('scormtype')?.toLowerCase() === 'sco',
      masteryScore: standard === '1.2' ? numberWithin(childText(item, 'masteryscore'), 0, 100) : null,
      scaledPassingScore: standard === '2004' ? scaledPassingScore(item, sequencingById) : null,
      completionThreshold: standard === '2004' ? completionThreshold(item) : null,
      dataFromLms: childText(item, 'datafromlms'),
    });
  }
  if (scos.length === 0) throw new PackageRefused('no-sco');
  const title = (organization && childText(organization, 'title')) ?? firstItemTitle(items) ?? FALLBACK_TITLE;
  return { standard, edition, title, scos };
}

/**
 * Reads the package unpacked in `dir`: its manifest, at the root or in the single folder that holds
 * everything (as an archive of a folder is); `root` is that folder ('Course/') or ''. Each SCO's
 * `launch` and `path` include `root`, and each launched file is checked to be there.
 */
export async function readPackage(dir: string): Promise<ScormManifest & { root: string }> {
  const root = await findManifestRoot(dir);
  const manifestPath = join(dir, root, MANIFEST);
  const { size } = await lstat(manifestPath);
  if (size > SCORM_LIMITS.manifestBytes) {
    throw new PackageRefused('bad-manifest', `${MANIFEST} is ${size} bytes, more than ${SCORM_LIMITS.manifestBytes}`);
  }
  const manifest = parseManifest(decodeText(await readFile(manifestPath)));
  const launchRoot = root === '' ? '' : `${encodeURIComponent(root.slice(0, -1))}/`;
  const scos = manifest.scos.map((sco) => ({ ...sco, launch: launchRoot + sco.launch, path: root + sco.path }));
  const realDir = await realpath(dir);
  for (const sco of scos) await assertFileInside(realDir, sco.path);
  return { ...manifest, scos, root };
}

async function findManifestRoot(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.some((entry) => entry.name === MANIFEST && entry.isFile())) return '';
  const content = entries.filter((entry) => !ARCHIVER_LEFTOVERS.has(entry.name));
  const single: Dirent | undefined = content.length === 1 ? content[0] : undefined;
  if (single?.isDirectory() && (await isFile(join(dir, single.name, MANIFEST)))) return `${single.name}/`;
  throw new PackageRefused('no-manifest');
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/** The path names a regular file whose real location is inside the package (no link leads out). */
async function assertFileInside(realDir: string, path: string): Promise<void> {
  let real: string;
  try {
    real = await realpath(join(realDir, path));
  } catch {
    throw new PackageRefused('missing-file', path);
  }
  if (!real.startsWith(realDir + sep)) throw new PackageRefused('unsafe-name', path);
  if (!(await isFile(real))) throw new PackageRefused('missing-file', path);
}

/** UTF-8 (with or without a byte order mark) or UTF-16 with one, as XML allows. */
function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/**
 * The version from <metadata><schemaversion> ('1.2', 'CAM 1.3' = 2004 2nd edition, '2004 3rd
 * Edition', '2004 4th Edition'); without a known one, from the ADL namespace the manifest declares.
 */
function detectVersion(
  manifest: XmlElement,
  namespaces: readonly string[],
): Pick<ScormManifest, 'standard' | 'edition'> {
  const metadata = childNamed(manifest, 'metadata');
  const schemaVersion = (metadata && childText(metadata, 'schemaversion'))?.replace(/\s+/g, ' ');
  if (schemaVersion === '1.2') return { standard: '1.2', edition: null };
  if (schemaVersion && /^cam 1\.3$/i.test(schemaVersion)) return { standard: '2004', edition: '2nd' };
  const edition = schemaVersion && /^2004 (2nd|3rd|4th) edition$/i.exec(schemaVersion);
  if (edition?.[1]) return { standard: '2004', edition: edition[1].toLowerCase() };
  const declares = (fragment: string) => namespaces.some((namespace) => namespace.toLowerCase().includes(fragment));
  if (declares('adlcp_rootv1p2')) return { standard: '1.2', edition: null };
  if (declares('adlcp_v1p3')) return { standard: '2004', edition: null };
  throw new PackageRefused('unknown-version', schemaVersion ?? undefined);
}

/** The organization <organizations default="…"> names, else the first. */
function chooseOrganization(manifest: XmlElement): XmlElement | undefined {
  const organizationsElement = childNamed(manifest, 'organizations');
  if (!organizationsElement) return undefined;
  const organizations = childrenNamed(organizationsElement, 'organization');
  const defaultId = organizationsElement.attributes.get('default');
  return (
    organizations.find((organization) => organization.attributes.get('identifier') === defaultId) ?? organizations[0]
  );
}

/** Items depth-first in document order: a parent before its children, as the organization's tree reads. */
function flattenItems(parent: XmlElement): XmlElement[] {
  return childrenNamed(parent, 'item').flatMap((item) => [item, ...flattenItems(item)]);
}

function firstItemTitle(items: readonly XmlElement[]): string | null {
  for (const item of items) {
    const title = childText(item, 'title');
    if (title) return title;
  }
  return null;
}

/** <imsss:sequencingCollection>: sequencing that items reuse by <imsss:sequencing IDRef="…">. */
function sequencingCollection(manifest: XmlElement): Map<string, XmlElement> {
  const collection = childNamed(manifest, 'sequencingcollection');
  const byId = new Map<string, XmlElement>();
  for (const sequencing of collection ? childrenNamed(collection, 'sequencing') : []) {
    const id = sequencing.attributes.get('id');
    if (id !== undefined) byId.set(id, sequencing);
  }
  return byId;
}

/**
 * The pass mark of a 2004 SCO: the primary objective's minNormalizedMeasure when the objective is
 * satisfied by measure (IMS SS's default measure is 1.0); the item's own sequencing overrides the
 * collection's it refers to.
 */
function scaledPassingScore(item: XmlElement, sequencingById: ReadonlyMap<string, XmlElement>): number | null {
  const own = childNamed(item, 'sequencing');
  const shared = own?.attributes.get('idref');
  const primary = [own, shared === undefined ? undefined : sequencingById.get(shared)]
    .map((sequencing) => sequencing && childNamed(sequencing, 'objectives'))
    .map((objectives) => objectives && childNamed(objectives, 'primaryobjective'))
    .find((objective) => objective !== undefined);
  if (!primary || !isTrue(primary.attributes.get('satisfiedbymeasure'))) return null;
  const measure = childText(primary, 'minnormalizedmeasure');
  return measure === null ? 1 : numberWithin(measure, -1, 1);
}

/** 2004's completion threshold: the element's text (2nd, 3rd editions) or its minProgressMeasure (4th). */
function completionThreshold(item: XmlElement): number | null {
  const threshold = childNamed(item, 'completionthreshold');
  if (!threshold) return null;
  return numberWithin(threshold.text || threshold.attributes.get('minprogressmeasure') || null, 0, 1);
}

const isTrue = (value: string | undefined) => value === 'true' || value === '1';

/** A decimal within min..max; anything else in the manifest is ignored rather than guessed at. */
function numberWithin(text: string | null, min: number, max: number): number | null {
  if (text === null || !/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}
