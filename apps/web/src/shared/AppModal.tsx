import { Modal, type ModalProps } from '@mantine/core';

/** The product's dialog look: centred, rounded, a dimmed and blurred page behind, a bold title. */
export function AppModal(props: ModalProps) {
  return (
    <Modal
      centered
      radius="lg"
      padding="lg"
      overlayProps={{ backgroundOpacity: 0.45, blur: 2 }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      {...props}
    />
  );
}
