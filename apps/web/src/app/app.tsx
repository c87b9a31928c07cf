import './mantine-styles.ts';
import './global.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { router } from './router.tsx';

const theme = createTheme({
  primaryColor: 'ampere',
  colors: {
    ampere: ['#e6f7ef', '#cdeede', '#9ddcbd', '#69c99a', '#3fb87c', '#23a968', '#13985a', '#0b7c49', '#0b6a3f', '#0b3d2e'],
  },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  primaryShade: 7,
});

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

export function App() {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
