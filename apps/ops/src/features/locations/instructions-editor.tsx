import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId } from 'react';
import { INSTRUCTIONS_STORED_SCHEMES } from '@ampere/domain/location-instructions';

/**
 * A rich-text field for a location's instructions (Tiptap through Mantine's editor), offering only
 * what the API keeps: paragraphs, bold, italics, bulleted and numbered lists, and web links.
 * Loaded with the location form alone, never with the console's first pages or the renter's.
 */
export function InstructionsEditor({
  label,
  description,
  initialHtml,
  error,
  onChange,
  readOnly = false,
}: {
  label: string;
  description: string;
  initialHtml: string;
  error?: string | null;
  onChange: (html: string) => void;
  readOnly?: boolean;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        blockquote: false,
        code: false,
        codeBlock: false,
        hardBreak: false,
        heading: false,
        horizontalRule: false,
        strike: false,
        underline: false,
        link: false,
      }),
      Link.configure({
        openOnClick: false,
        autolink: true,
        protocols: [...INSTRUCTIONS_STORED_SCHEMES],
        defaultProtocol: 'https',
        isAllowedUri: (url) => /^https?:\/\//i.test(url),
        // The API keeps a link's address only.
        HTMLAttributes: { target: null, rel: null, class: null },
      }),
    ],
    content: initialHtml,
    editable: !readOnly,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        'aria-describedby': error ? `${descriptionId} ${errorId}` : descriptionId,
        ...(error ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  return (
    <Input.Wrapper
      label={label}
      labelProps={{ id: labelId }}
      description={description}
      descriptionProps={{ id: descriptionId }}
      error={error}
      errorProps={{ id: errorId }}
    >
      <RichTextEditor editor={editor} mt={4}>
        {!readOnly && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
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
        )}
        <RichTextEditor.Content />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
