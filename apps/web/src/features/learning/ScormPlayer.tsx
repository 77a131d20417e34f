import type { ScormLaunch } from '@lms/contract';
import { Button, Group } from '@mantine/core';
import { IconMaximize } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import classes from './Learning.module.css';
import { isScormCommit } from './logic';
import { LEARNING_TEXTS as T } from './texts';

interface ScormPlayerProps {
  launch: ScormLaunch;
  /** The frame's accessible name. */
  title: string;
  /** The package committed: its state and the course's progress have changed. */
  onCommit: () => void;
}

/**
 * The SCORM package in a frame, sandboxed exactly as the launch says (the server decides what the
 * package may do), and the 'На весь экран' button. The frame tells of each commit by a message;
 * only its own messages, from the launch's origin, count.
 */
export function ScormPlayer({ launch, title, onCommit }: ScormPlayerProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // The latest callback, without listening anew on each render.
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  }, [onCommit]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (isScormCommit(event, frame.current?.contentWindow, launch.origin)) commit.current();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [launch.origin]);

  const fullscreen = () => {
    // Refused (no gesture, or not allowed): the frame just stays as it is.
    box.current?.requestFullscreen().catch(() => undefined);
  };

  return (
    <>
      <Group justify="flex-end">
        <Button variant="default" size="xs" leftSection={<IconMaximize size={16} aria-hidden />} onClick={fullscreen}>
          {T.scormFullscreen}
        </Button>
      </Group>
      <div ref={box} className={classes.scormBox}>
        <iframe
          // A new launch (another SCO) is a new frame, not a navigation of the old one.
          key={launch.url}
          ref={frame}
          src={launch.url}
          sandbox={launch.sandbox}
          allow="fullscreen"
          title={title}
          className={classes.scormFrame}
        />
      </div>
    </>
  );
}
