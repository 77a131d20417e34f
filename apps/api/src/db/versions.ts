/**
 * Transitional: the versions the users module's kept pages still name on this branch (issue 31). The
 * session lookup reads none any more (`ActiveSession.versions` is always undefined); this file goes
 * with the users module's kept pages at merge.
 */
export interface ReadVersions {
  viewer: number;
  cards: number;
  users: number;
}
