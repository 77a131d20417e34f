import '@mantine/tiptap/styles.css';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import Link from '@tiptap/extension-link';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useRef } from 'react';
import classes from '../Constructor.module.css';
import { T } from '../texts';

/** Russian names of the toolbar's controls (screen readers and tooltips). */
const LABELS: Partial<RichTextEditorLabels> = {
  boldControlLabel: 'Жирный',
  italicControlLabel: 'Курсив',
  underlineControlLabel: 'Подчеркнутый',
  strikeControlLabel: 'Зачеркнутый',
  clearFormattingControlLabel: 'Очистить форматирование',
  h2ControlLabel: 'Заголовок 2',
  h3ControlLabel: 'Заголовок 3',
  h4ControlLabel: 'Заголовок 4',
  bulletListControlLabel: 'Маркированный список',
  orderedListControlLabel: 'Нумерованный список',
  blockquoteControlLabel: 'Цитата',
  hrControlLabel: 'Горизонтальная линия',
  codeControlLabel: 'Код',
  linkControlLabel: 'Ссылка',
  unlinkControlLabel: 'Удалить ссылку',
  undoControlLabel: 'Отменить',
  redoControlLabel: 'Повторить',
  linkEditorInputLabel: 'Адрес ссылки',
  linkEditorInputPlaceholder: 'https://example.com',
  linkEditorExternalLink: 'Открывать в новой вкладке',
  linkEditorInternalLink: 'Открывать в этой вкладке',
  linkEditorSave: 'Сохранить',
};

/** Mantine's TipTap editor (bundled, loaded with the first text block opened for editing). */
export default function RichText({ initial, onChange }: { initial: string; onChange: (html: string) => void }) {
  const report = useRef(onChange);
  report.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false }),
      Link.configure({ openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] }),
    ],
    content: initial,
    immediatelyRender: true,
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { 'aria-label': T.blockText, 'aria-multiline': 'true', role: 'textbox' } },
    onUpdate: ({ editor: e }) => report.current(e.isEmpty ? '' : e.getHTML()),
  });

  return (
    <RichTextEditor editor={editor} labels={LABELS}>
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
          <RichTextEditor.ClearFormatting />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.H4 />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Blockquote />
          <RichTextEditor.Hr />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Undo />
          <RichTextEditor.Redo />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content className={classes.editorContent} />
    </RichTextEditor>
  );
}
