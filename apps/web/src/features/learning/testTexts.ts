import { formatOutOf, type RuForms } from '../../lib/plural';

/** 'из 1 правильного ответа', 'из 5 правильных ответов' (docs/product.md §Test result: 'correct/total правильных ответов'). */
const OF_CORRECT_ANSWERS: RuForms = ['правильного ответа', 'правильных ответов', 'правильных ответов'];

/** Test introduction, test taking, result and answers review texts (docs/product.md §Test taking). */
export const TEST_TEXTS = {
  // introduction
  questionsCount: 'Количество вопросов',
  timeLimit: 'Время на прохождение',
  passingScore: 'Проходной балл',
  retakeInterval: 'Интервал между попытками',
  maxAttempts: 'Максимум попыток',
  unfinished: 'У вас есть незавершенная попытка. Вы можете продолжить тест.',
  history: 'История попыток',
  attemptNumber: '№',
  status: 'Статус',
  finishedAt: 'Дата',
  timeSpent: 'Затраченное время',
  result: 'Результат',
  passed: 'Пройден',
  failed: 'Не пройден',
  blocked: 'Тест заблокирован',
  blockedWait: (wait: string) => `До следующей попытки: ${wait}`,
  forever: 'навсегда',
  now: 'сейчас',
  exhausted: 'Вы исчерпали все доступные попытки.',
  passedScore: (score: number) => `Результат: ${score}%`,
  cannotStart: 'Тест не может быть начат',
  emptyHint: 'Тест не заполнен. Обратитесь к администратору для настройки теста.',
  unavailable: 'Тест недоступен',
  start: 'Начать тест',
  continue: 'Продолжить тест',
  // taking
  closeTest: 'Закрыть тест и вернуться к курсу',
  navigator: 'Вопросы теста',
  questionNumber: (n: number) => `Вопрос ${n}`,
  questionOf: (n: number, total: number) => `Вопрос ${n} из ${total}`,
  timeLeft: 'Оставшееся время',
  single: 'Один верный ответ',
  multiple: 'Несколько верных ответов',
  answer: 'Ответить',
  saving: 'Сохранение...',
  skip: 'Пропустить',
  answered: 'Вопрос уже отвечен',
  nextQuestion: 'Следующий вопрос',
  finishTest: 'Завершить тест',
  notFilled: 'Тест не заполнен',
  confirmFinishTitle: 'Завершить тест?',
  /** `count` is questionsText(n): 'Вы не ответили на 2 вопроса.' */
  unanswered: (count: string) => `Вы не ответили на ${count}.`,
  backToQuestions: 'Вернуться к вопросам',
  close: 'Закрыть',
  answeredOf: (answered: number, total: number) => `Отвечено: ${answered} из ${total}`,
  expired: 'Время теста истекло!',
  autoFinish: 'Попытка будет автоматически завершена.',
  previousItem: 'Предыдущее занятие',
  nextItem: 'Следующее занятие',
  // toasts and errors (docs/product.md §Test taking)
  started: 'Тест начат!',
  continued: 'Продолжаем тест!',
  finished: 'Тест завершен!',
  timeIsUp: 'Время теста истекло! Попытка завершена.',
  loadError: 'Ошибка при загрузке теста',
  startError: 'Ошибка при создании попытки теста',
  startBlockedForever: ' Тест заблокирован навсегда.',
  startBlockedUntil: (duration: string) => ` Следующая попытка будет доступна через ${duration}.`,
  finishError: 'Ошибка при завершении теста',
  autoFinishError: 'Ошибка при завершении попытки',
  noAttempt: 'Не удалось завершить тест',
  saveFailed: 'Не удалось сохранить ответ. Попробуйте еще раз.',
  // result
  testPassed: 'Тест пройден',
  testFailed: 'Тест не пройден',
  resultTime: (time: string) => `Затраченное время: ${time}`,
  correctOf: (correct: number, total: number) => formatOutOf(correct, total, OF_CORRECT_ANSWERS),
  passedAt: (date: string, time: string) => `Тест сдан ${date} в ${time}`,
  attemptOf: (n: number, max: number) => `Попытка ${n} из ${max}`,
  retry: 'Пройти еще раз',
  passedMessage: 'Вы справились с тестом, можно переходить к следующей лекции',
  failedMessage: 'Иногда сложно усвоить информацию с первого раза.',
  nextLesson: 'Следующее занятие',
  backToTest: 'Вернуться к тесту',
  showAnswers: 'Посмотреть ответы',
  score: 'Результат теста',
  // review
  back: 'Назад',
  forward: 'Вперед',
  reviewTitle: 'Ответы на тест',
  correctOption: 'Верный ответ',
  wrongOption: 'Неверный ответ',
  selectedOption: 'Ваш ответ',
} as const;

export const QUESTION_FORMS: RuForms = ['вопрос', 'вопроса', 'вопросов'];
export const PERCENT_FORMS: RuForms = ['процент', 'процента', 'процентов'];
export const HOUR_FORMS: RuForms = ['час', 'часа', 'часов'];
export const MINUTE_FORMS: RuForms = ['минута', 'минуты', 'минут'];
export const SECOND_FORMS: RuForms = ['секунда', 'секунды', 'секунд'];
