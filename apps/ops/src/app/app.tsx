import '@mantine/core/styles.css';
import './global.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** The renter app's colours, so the two feel like one company's. */
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
  components: {
    // A dialog's header is not the page's banner landmark.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    ModalCloseButton: { defaultProps: { 'aria-label': 'Close' } },
    DrawerCloseButton: { defaultProps: { 'aria-label': 'Close' } },
  },
});

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 15_000 } },
});

export function App({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
