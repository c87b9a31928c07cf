import { useId } from 'react';

/**
 * The console's CSV chooser (the fleet import and the toll statement): a button-styled label over
 * a hidden file input, emptied after each choice so that choosing the same file again reads it again.
 */
export function CsvFileButton({
  chosen,
  label,
  onChoose,
}: {
  /** A file is chosen already: the button offers another. */
  chosen: boolean;
  /** The input's accessible name, saying what the file holds. */
  label: string;
  onChoose: (file: File | undefined) => void;
}) {
  const inputId = useId();
  return (
    <>
      <label htmlFor={inputId} className="ops-file-button">
        {chosen ? 'Choose another file' : 'Choose a CSV file'}
      </label>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="ops-file-input"
        aria-label={label}
        onChange={(e) => {
          const picked = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          onChoose(picked);
        }}
      />
    </>
  );
}
