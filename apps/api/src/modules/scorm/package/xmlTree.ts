import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PackageRefused } from './unpack.js';

/**
 * imsmanifest.xml as a plain tree of elements named by their local names in lower case. Authoring
 * tools disagree on namespace prefixes (adlcp:, imsss:, none at all under a default namespace) and
 * on case (scormType, scormtype), and an LMS is expected to read them all, so names are matched
 * without prefix and case. The namespaces declared anywhere are kept: they tell the SCORM version
 * when the metadata does not.
 */

export interface XmlElement {
  /** Local name in lower case: 'adlcp:masteryscore' → 'masteryscore'. */
  name: string;
  /** Attributes by local name in lower case ('xml:base' → 'base'); namespace declarations are not here. */
  attributes: ReadonlyMap<string, string>;
  children: readonly XmlElement[];
  /** The element's own text (not its children's), trimmed. */
  text: string;
}

export interface XmlDocument {
  root: XmlElement;
  /** Every namespace URI declared in the document. */
  namespaces: readonly string[];
}

const TEXT = '#text';
const CDATA = '#cdata';
const ATTRIBUTES = ':@';

/**
 * Entities are not expanded by the parser: a DOCTYPE's own entities could be a "billion laughs"
 * and external ones read the server's files (the parser refuses external ones outright). The five
 * predefined entities and character references are decoded here instead.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  cdataPropName: CDATA,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return PREDEFINED_ENTITIES[name] ?? whole;
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** Parses the XML; throws `PackageRefused('bad-manifest')` with the parser's message when it is not well-formed. */
export function parseXmlTree(xml: string): XmlDocument {
  const verdict = XMLValidator.validate(xml);
  if (verdict !== true) {
    throw new PackageRefused('bad-manifest', `${verdict.err.msg} (line ${verdict.err.line})`);
  }
  let parsed: unknown;
  try {
    parsed = parser.parse(xml);
  } catch (error) {
    throw new PackageRefused('bad-manifest', error instanceof Error ? error.message : String(error));
  }
  const namespaces: string[] = [];
  const roots = asNodes(parsed).flatMap((node) => toElement(node, namespaces) ?? []);
  const root = roots[0];
  if (root === undefined) throw new PackageRefused('bad-manifest', 'no root element');
  return { root, namespaces };
}

type RawNode = Record<string, unknown>;

function asNodes(value: unknown): RawNode[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is RawNode => typeof item === 'object' && item !== null);
}

/** An element of the parser's ordered output (`{ tag: [children], ':@': {attributes} }`), or null for text. */
function toElement(node: RawNode, namespaces: string[]): XmlElement | null {
  const tag = Object.keys(node).find((key) => key !== ATTRIBUTES && key !== TEXT && key !== CDATA);
  if (tag === undefined) return null;
  const attributes = new Map<string, string>();
  const rawAttributes = node[ATTRIBUTES];
  if (typeof rawAttributes === 'object' && rawAttributes !== null) {
    for (const [name, value] of Object.entries(rawAttributes)) {
      if (typeof value !== 'string') continue;
      if (name === 'xmlns' || name.startsWith('xmlns:')) namespaces.push(decodeEntities(value));
      else if (!attributes.has(localName(name))) attributes.set(localName(name), decodeEntities(value));
    }
  }
  const children: XmlElement[] = [];
  const texts: string[] = [];
  for (const child of asNodes(node[tag])) {
    if (typeof child[TEXT] === 'string' || typeof child[TEXT] === 'number')
      texts.push(decodeEntities(String(child[TEXT])));
    else if (CDATA in child) texts.push(...asNodes(child[CDATA]).map((part) => String(part[TEXT] ?? '')));
    else {
      const element = toElement(child, namespaces);
      if (element) children.push(element);
    }
  }
  return { name: localName(tag), attributes, children, text: texts.join('').trim() };
}

/** The element's children with the local name (lower case). */
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] =>
  element.children.filter((child) => child.name === name);

/** The element's first child with the local name (lower case). */
export const childNamed = (element: XmlElement, name: string): XmlElement | undefined =>
  element.children.find((child) => child.name === name);

/** The text of the first child with the local name, or null when there is none or it is empty. */
export function childText(element: XmlElement, name: string): string | null {
  const text = childNamed(element, name)?.text;
  return text ? text : null;
}
