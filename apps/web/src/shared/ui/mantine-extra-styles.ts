// Styles of the Mantine components that /search does not use, imported by the pages that do, so
// they load with those pages rather than with every page (see app/mantine-styles.ts for the rest).
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/List.css';
