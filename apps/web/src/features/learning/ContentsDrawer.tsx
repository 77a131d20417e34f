import { Drawer } from '@mantine/core';
import type { ItemKey } from './logic';
import { ModuleList } from './ModuleList';
import { useModules } from './queries';
import { Loading, LoadError } from './states';
import { LEARNING_TEXTS as T } from './texts';

interface ContentsDrawerProps {
  courseId: number;
  current: ItemKey;
  opened: boolean;
  onClose: () => void;
}

/**
 * The contents panel (docs/product.md §Course page): 450 px from the right, 'Содержание', the module list in
 * compact mode; Escape, the backdrop and the close button close it.
 */
export function ContentsDrawer({ courseId, current, opened, onClose }: ContentsDrawerProps) {
  const modules = useModules(courseId);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={450}
      title={T.contents}
      closeButtonProps={{ 'aria-label': T.closeContents }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {modules.isPending ? (
        <Loading />
      ) : modules.isError ? (
        <LoadError error={modules.error} />
      ) : (
        <ModuleList modules={modules.data} current={current} compact onNavigate={onClose} />
      )}
    </Drawer>
  );
}
