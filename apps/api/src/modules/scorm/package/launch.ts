import { PackageRefused } from './unpack.js';

/**
 * A SCO's launch address from the manifest: the resource's href resolved against the xml:base
 * attributes above it, with the item's `parameters` added by the rules of SCORM's content
 * packaging (CAM: "parameters"). The address stays relative to the package: an absolute URL, an
 * absolute path or a path that climbs out of the package is refused.
 */

export interface Launch {
  /** The address relative to the package's folder: URL-encoded path, then query and fragment. */
  launch: string;
  /** The file the address names: decoded, normalised, '/'-separated, relative to the package's folder. */
  path: string;
}

/** 'http:', 'javascript:', 'C:' — anything with a scheme (or a drive) is not a file in the package. */
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * Resolves `href` against `bases` (outermost first: the manifest's, the resources', the
 * resource's xml:base) as a URL reference would be, and appends `parameters`.
 */
export function resolveLaunch(bases: readonly string[], href: string, parameters: string | null): Launch {
  let reference = '';
  for (const part of [...bases.map(withoutQuery), href]) {
    const slashed = part.replace(/\\/g, '/');
    if (HAS_SCHEME.test(slashed) || slashed.startsWith('/')) {
      throw new PackageRefused('unsafe-name', `not a path inside the package: ${part}`);
    }
    // A reference replaces what follows the last '/' of the one it is resolved against.
    reference = reference.slice(0, reference.lastIndexOf('/') + 1) + slashed;
  }
  const { path: rawPath, query, fragment } = splitReference(reference);
  const segments = normalisedSegments(rawPath, href);
  const withParameters = appendParameters(query, fragment, parameters);
  return {
    launch: segments.map(encodeURIComponent).join('/') + withParameters,
    path: segments.join('/'),
  };
}

function withoutQuery(base: string): string {
  return splitReference(base).path;
}

function splitReference(reference: string): { path: string; query: string | null; fragment: string | null } {
  const hashAt = reference.indexOf('#');
  const fragment = hashAt === -1 ? null : reference.slice(hashAt + 1);
  const beforeHash = hashAt === -1 ? reference : reference.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  return {
    path: queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt),
    query: queryAt === -1 ? null : beforeHash.slice(queryAt + 1),
    fragment,
  };
}

/** Decoded path segments without '.', empty ones and '..' (which may not climb above the package). */
function normalisedSegments(rawPath: string, href: string): string[] {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    const segment = decodeSegment(raw);
    // An encoded '/' or NUL would turn into a different path once the file system reads it.
    if (segment.includes('/') || segment.includes('\\') || segment.includes('\0')) {
      throw new PackageRefused('unsafe-name', `not a path inside the package: ${href}`);
    }
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) {
        throw new PackageRefused('unsafe-name', `the path leaves the package: ${href}`);
      }
      continue;
    }
    segments.push(segment);
  }
  return segments;
}

/** '%20' → ' '; a '%' that starts no escape ('100%.html', as hand-written manifests have) stays as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The CAM's rules for an item's `parameters`: a leading '?' or '&' is dropped; parameters that are
 * a fragment ('#…') are used only when the href has none; otherwise they join the href's query
 * with '&' (or start one with '?'). The href's fragment stays at the end, where a URL keeps it.
 */
function appendParameters(query: string | null, fragment: string | null, parameters: string | null): string {
  let finalQuery = query;
  let finalFragment = fragment;
  const trimmed = (parameters ?? '').replace(/^[?&]+/, '');
  if (trimmed.startsWith('#')) {
    if (finalFragment === null) finalFragment = trimmed.slice(1);
  } else if (trimmed !== '') {
    const { query: extraQuery, fragment: extraFragment } = splitReference(`?${trimmed}`);
    if (extraQuery) finalQuery = finalQuery ? `${finalQuery}&${extraQuery}` : extraQuery;
    if (finalFragment === null && extraFragment !== null) finalFragment = extraFragment;
  }
  return (finalQuery ? `?${finalQuery}` : '') + (finalFragment !== null ? `#${finalFragment}` : '');
}
