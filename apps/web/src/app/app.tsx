import './mantine-styles.ts';
import './global.css';
import { Button, MantineProvider, createTheme, defaultVariantColorsResolver } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RealtimeConnection } from '../shared/realtime/realtime-connection.tsx';

const theme = createTheme({
  primaryColor: 'ampere',
  colors: {
    ampere: [
      '#e6f7ef',
      '#cdeede',
      '#9ddcbd',
      '#69c99a',
      '#3fb87c',
      '#23a968',
      '#13985a',
      '#0b7c49',
      '#0b6a3f',
      '#0b3d2e',
    ],
  },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  primaryShade: 7,
  // Filled primary buttons take the button-background flag (shared/flags/flag-theme.ts). Mantine
  // asks the resolver only for a button with a colour, hence the default one.
  components: {
    Button: Button.extend({ defaultProps: { color: 'ampere' } }),
    // A dialog's header is not the page's banner landmark, and its close button needs a name.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    ModalCloseButton: { defaultProps: { 'aria-label': 'Close' } },
    DrawerCloseButton: { defaultProps: { 'aria-label': 'Close' } },
  },
  variantColorResolver: (input) => {
    const colours = defaultVariantColorsResolver(input);
    if (input.variant !== 'filled' || (input.color && input.color !== 'ampere')) return colours;
    return {
      ...colours,
      background: 'var(--ampere-button-bg)',
      hover: 'var(--ampere-button-hover)',
      color: 'var(--ampere-button-fg)',
    };
  },
});

/** The providers around the router: the browser's (main.tsx) or, for a page's first screen, the server's (entry-server.tsx). */
export function App({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={client}>
        <RealtimeConnection />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
