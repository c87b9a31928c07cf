import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import { forgetSession, revokeSession } from '../public/log-out.ts';

/** /logout (spec 2): revokes the session (failures ignored), clears it and the cache, goes to /login. */
export function LogoutPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void revokeSession().then(() => {
      forgetSession(queryClient);
      void navigate(paths.login(), { replace: true });
    });
  }, [queryClient, navigate]);
  return (
    <Center py="xl">
      <Loader aria-label="Signing you out" />
    </Center>
  );
}
