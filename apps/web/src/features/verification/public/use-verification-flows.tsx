import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { InsuranceEventData } from '@ampere/domain/realtime';
import { useNavigate } from '../../../shared/router/react.tsx';
import { paths } from '../../../shared/paths.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { useRealtimeEvent } from '../../../shared/realtime/use-realtime-event.ts';
import {
  licenseKeys,
  startInsuranceConnection,
  startLicenseVerification,
  useLatestLicenseVerification,
} from '../api/verifications.ts';
import { ProviderFrameModal, type TwinOutcome } from '../components/provider-frame-modal.tsx';

/** Spec 4: raised when the identity modal closes, finished or cancelled. */
export const LICENSE_COMPLETED_EVENT = 'license-completed';

/** How long a page waits for a provider's decision before it stops asking (it is still applied when it comes). */
const WAIT_LIMIT_MS = 45_000;

const messageOf = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback);

/** Everything a page shows about a renter's data goes stale after a decision: the renter, their trips, their insurance. */
function useRefreshAfterDecision() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const queryKey of [['users'], ['reservations'], ['insurance'], licenseKeys.latest()])
      void queryClient.invalidateQueries({ queryKey });
  }, [queryClient]);
}

interface FlowOptions {
  /** The trip being verified; none for onboarding. */
  platformId?: string;
  /** Spec 4: verifying while the trip is Started (unpaid) first sends the renter to pay. */
  unpaid?: boolean;
}

/**
 * The driver's license flow: open the hosted check in the modal; when the renter finishes, wait for
 * the provider's decision (it arrives by webhook), then refresh what the page shows.
 */
export function useLicenseFlow({ platformId, unpaid }: FlowOptions) {
  const navigate = useNavigate();
  const refresh = useRefreshAfterDecision();
  const [url, setUrl] = useState<string | null>(null);
  const [waitingSince, setWaitingSince] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const latest = useLatestLicenseVerification(waitingSince !== null);
  const status = latest.data?.status;
  useEffect(() => {
    if (waitingSince === null || !status) return;
    if (status !== 'created' && status !== 'started' && status !== 'submitted') {
      setWaitingSince(null);
      refresh();
    } else if (Date.now() - waitingSince > WAIT_LIMIT_MS) setWaitingSince(null);
  }, [status, waitingSince, refresh, latest.dataUpdatedAt]);

  const start = async () => {
    if (unpaid && platformId) return void navigate(paths.trip.pay(platformId));
    setError(null);
    setOpening(true);
    try {
      setUrl((await startLicenseVerification(platformId)).url);
    } catch (err) {
      setError(messageOf(err, 'The license check could not be opened. Please try again.'));
    } finally {
      setOpening(false);
    }
  };
  const onFinish = useCallback(
    (outcome: TwinOutcome | 'closed') => {
      setUrl(null);
      window.dispatchEvent(new CustomEvent(LICENSE_COMPLETED_EVENT, { detail: { outcome } }));
      setWaitingSince(Date.now());
      refresh();
    },
    [refresh],
  );
  const checking = waitingSince !== null && (status === 'submitted' || status === 'started' || status === undefined);
  return {
    start,
    opening,
    error,
    checking,
    modal: <ProviderFrameModal url={url} title="Verify your driver's license" flow="identity" onFinish={onFinish} />,
  };
}

export type InsuranceNotice = { tone: 'success' | 'error'; text: string } | null;

/** The carrier's words for what went wrong, from an insurance event's data. */
const failureOf = (data: unknown): string | null => {
  const message = (data as InsuranceEventData | null)?.message;
  return typeof message === 'string' && message.trim() ? message.trim() : null;
};
const NOT_CONNECTED = 'Your insurance is not connected yet. Try Again when you have your carrier sign-in at hand.';

/**
 * The insurance flow: open the provider's connection in the modal; its outcome comes back as a
 * realtime event on the renter's channel (spec 4: completed, exited, failed, error).
 */
export function useInsuranceFlow({ platformId, unpaid }: FlowOptions) {
  const navigate = useNavigate();
  const refresh = useRefreshAfterDecision();
  const [url, setUrl] = useState<string | null>(null);
  const [notice, setNotice] = useState<InsuranceNotice>(null);
  const [waiting, setWaiting] = useState(false);
  const [opening, setOpening] = useState(false);

  // Until the event arrives, look again every few seconds (a page whose socket dropped still hears the outcome).
  useEffect(() => {
    if (!waiting) return;
    const started = Date.now();
    const timer = setInterval(() => {
      refresh();
      if (Date.now() - started > WAIT_LIMIT_MS) setWaiting(false);
    }, 3000);
    return () => clearInterval(timer);
  }, [waiting, refresh]);

  // A sign-in the carrier refused while the window is open (a wrong password): the renter stays in
  // the window to try again; if they leave without connecting, the page says what happened.
  const refused = useRef<string | null>(null);
  const settle = (next: InsuranceNotice) => {
    setWaiting(false);
    setUrl(null);
    refused.current = null;
    if (next) setNotice(next);
    refresh();
  };
  const leftAfter = (message: string | null): InsuranceNotice =>
    message ? { tone: 'error', text: `${message} ${NOT_CONNECTED}` } : null;
  useRealtimeEvent('insurance-completed', () => settle({ tone: 'success', text: 'Your insurance is connected.' }));
  useRealtimeEvent('insurance-failed', (data) => {
    if ((data as InsuranceEventData | null)?.retry) {
      refused.current = failureOf(data);
      return;
    }
    const why = failureOf(data) ?? 'We could not verify an active policy with that connection.';
    settle({ tone: 'error', text: `${why} Try Again with another policy or carrier.` });
  });
  useRealtimeEvent('insurance-error', () =>
    settle({ tone: 'error', text: 'Your insurance carrier did not respond. Please try again later.' }),
  );
  useRealtimeEvent('insurance-exited', (data) => settle(leftAfter(failureOf(data) ?? refused.current)));

  const start = async () => {
    if (unpaid && platformId) return void navigate(paths.trip.pay(platformId));
    setNotice(null);
    setOpening(true);
    try {
      setUrl((await startInsuranceConnection(platformId)).ignition_uri);
    } catch (err) {
      setNotice({
        tone: 'error',
        text: messageOf(err, 'The insurance connection could not be opened. Please try again.'),
      });
    } finally {
      setOpening(false);
    }
  };
  const onFinish = useCallback(
    (outcome: TwinOutcome | 'closed') => {
      setUrl(null);
      if (outcome === 'completed') setWaiting(true);
      // Closed by the renter after a refused sign-in: name it, and offer Try Again.
      else if (outcome === 'closed' && refused.current) setNotice(leftAfter(refused.current));
      refused.current = null;
      refresh();
    },
    [refresh],
  );
  return {
    start,
    opening,
    notice,
    /** The last connection ended without insuring the trip, and the page has said why. */
    failed: notice?.tone === 'error',
    checking: waiting,
    modal: <ProviderFrameModal url={url} title="Connect your insurance" flow="insurance" onFinish={onFinish} />,
  };
}
