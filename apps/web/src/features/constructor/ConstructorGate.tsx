import { Anchor } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useParams, type Params } from 'react-router';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { Link } from '../../shared/Link';
import { Notice } from '../../shared/ListStates';
import { useSession } from '../../shared/session';
import { canUseConstructor } from './logic';
import { T } from './texts';

/** An id from a constructor address: a positive whole number, else null. */
export function parseId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

interface ConstructorGateProps<Ids> {
  /** The page's ids read from its address; null when they are not ids. */
  ids: (params: Readonly<Params>) => Ids | null;
  /** The notice for an address whose ids are not numbers. */
  badAddress: string;
  children: (ids: Ids) => ReactNode;
}

/**
 * The door of every constructor page: only for admins and authors ('constructor.manage'); everyone
 * else sees 'Доступ запрещен' and nothing is requested. An address without valid ids gets a notice
 * with a link back to the constructor.
 */
export function ConstructorGate<Ids>({ ids, badAddress, children }: ConstructorGateProps<Ids>) {
  const { user } = useSession();
  const params = useParams();
  if (!canUseConstructor(user?.permissions)) {
    return <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />;
  }
  const read = ids(params);
  if (read === null) {
    return (
      <Notice icon={<IconFileText size={24} aria-hidden="true" />} color="red" title={badAddress}>
        <Anchor component={Link} to="/management">
          {T.constructor}
        </Anchor>
      </Notice>
    );
  }
  return children(read);
}
