import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Polyfills Mantine needs in jsdom.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element, pseudo?: string | null) => getComputedStyle(element, pseudo);
window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;

// findBy*/waitFor give up after a span of wall-clock time (1 s by default). A first render of a
// heavy screen (settings tables, the catalogue) is CPU work that takes longer than that when both
// cores are busy, so the wait failed although nothing was wrong. The bound stays below the 5 s test
// limit: an element that never comes still fails as "Unable to find", with the page printed.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
});
