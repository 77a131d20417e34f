/**
 * The directory of the sync bench (directory.ts): BENCH_DIRECTORY_ENTRIES people (50 000 by default)
 * in 250 departments kept as OUs under 10 branch OUs (ou=Продажи (Казань),ou=Казань,ou=people,…),
 * everyone enabled, each with a line manager (`manager`, a DN) but the branches' first heads: a
 * department's first person heads it and reports to their branch's first head; and the changes made
 * between two syncs, spread over the tree (none of them to a head, so no one's manager goes).
 */
import { Attribute, Change, type Client } from 'ldapts';
import { PEOPLE_DN, type LdifEntry } from '../test/slapd.js';

const CITIES = ['Москва', 'Казань', 'Самара', 'Пермь', 'Омск', 'Томск', 'Тула', 'Курск', 'Тверь', 'Сочи'];
const FUNCTIONS = [
  'Продажи',
  'Склад',
  'Бухгалтерия',
  'Логистика',
  'Закупки',
  'Маркетинг',
  'Кадры',
  'Юристы',
  'Поддержка',
  'Разработка',
  'Качество',
  'Охрана труда',
  'Финансы',
  'Аналитика',
  'Обучение',
  'Снабжение',
  'Производство',
  'Сервис',
  'Транспорт',
  'Безопасность',
  'Экспорт',
  'Розница',
  'Опт',
  'Диспетчерская',
  'Администрация',
];
const SURNAMES = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков'];
const GIVEN = ['Александр', 'Мария', 'Дмитрий', 'Анна', 'Сергей', 'Елена', 'Андрей', 'Ольга', 'Алексей', 'Наталья'];
const TITLES = ['Специалист', 'Ведущий специалист', 'Менеджер', 'Кладовщик', 'Бухгалтер', 'Инженер', 'Оператор'];

export const DEPARTMENTS = CITIES.length * FUNCTIONS.length;
export const OUS = CITIES.length + DEPARTMENTS;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const cityDn = (city: number) => `ou=${pick(CITIES, city)},${PEOPLE_DN}`;
/** A department's name: the nearest OU of its people, what the sync names the department. */
const departmentName = (d: number) => `${pick(FUNCTIONS, d)} (${pick(CITIES, Math.floor(d / FUNCTIONS.length))})`;
const departmentDn = (d: number) => `ou=${departmentName(d)},${cityDn(Math.floor(d / FUNCTIONS.length))}`;
const departmentOf = (i: number) => (i - 1) % DEPARTMENTS;
const personDn = (i: number, department = departmentOf(i)) => `uid=user${i},${departmentDn(department)}`;
/** Person i's manager: the head of their department (person d + 1), or a head's branch head; 0: none. */
function managerOf(i: number): number {
  const department = departmentOf(i);
  if (i > DEPARTMENTS) return department + 1;
  const branchHead = Math.floor(department / FUNCTIONS.length) * FUNCTIONS.length + 1;
  return branchHead === i ? 0 : branchHead;
}

/** The tree's OUs and people, parents first (as slapadd loads them). */
export function* directoryTree(people: number): Iterable<LdifEntry> {
  for (let c = 0; c < CITIES.length; c++)
    yield { dn: cityDn(c), attributes: { objectClass: 'organizationalUnit', ou: pick(CITIES, c) } };
  for (let d = 0; d < DEPARTMENTS; d++)
    yield { dn: departmentDn(d), attributes: { objectClass: 'organizationalUnit', ou: departmentName(d) } };
  for (let i = 1; i <= people; i++) {
    const sn = pick(SURNAMES, i) + (pick(GIVEN, i * 7).endsWith('а') ? 'а' : '');
    const givenName = pick(GIVEN, i * 7);
    yield {
      dn: personDn(i),
      attributes: {
        objectClass: 'inetOrgPerson',
        uid: `user${i}`,
        cn: `${sn} ${givenName}`,
        sn,
        givenName,
        mail: `user${i}@example.com`,
        title: pick(TITLES, i * 3),
        ...(managerOf(i) > 0 && managerOf(i) <= people ? { manager: personDn(managerOf(i)) } : {}),
      },
    };
  }
}

/** What `changeTree` did, as the next dry run should count it. */
export interface TreeChanges {
  retitled: number;
  moved: number;
  disabled: number;
  removed: number;
}

/**
 * Changes `count` people spread evenly over the tree, in tenths: 4 a new title, 4 moved to the next
 * department (another OU), 1 disabled (employeeType=disabled), 1 removed from the directory.
 */
export async function changeTree(client: Client, people: number, count: number): Promise<TreeChanges> {
  const done: TreeChanges = { retitled: 0, moved: 0, disabled: 0, removed: 0 };
  const stride = Math.max(1, Math.floor((people - DEPARTMENTS) / count));
  for (let k = 0; k < count; k++) {
    // Past the heads: a head moved or removed would change their people's manager too.
    const i = DEPARTMENTS + 1 + k * stride;
    if (i > people) throw new Error(`${count} changes need more than ${people} people`);
    const kind = k % 10;
    if (kind < 4) {
      const modification = new Attribute({ type: 'title', values: ['Руководитель группы'] });
      await client.modify(personDn(i), new Change({ operation: 'replace', modification }));
      done.retitled++;
    } else if (kind < 8) {
      await client.modifyDN(personDn(i), personDn(i, (departmentOf(i) + 1) % DEPARTMENTS));
      done.moved++;
    } else if (kind === 8) {
      const modification = new Attribute({ type: 'employeeType', values: ['disabled'] });
      await client.modify(personDn(i), new Change({ operation: 'add', modification }));
      done.disabled++;
    } else {
      await client.del(personDn(i));
      done.removed++;
    }
  }
  return done;
}
