import { Modal } from '@mantine/core';
import { useEffect } from 'react';
import classes from './verification.module.css';
import { useWideLayout } from '../../../shared/ui/use-wide-layout.ts';

export type TwinOutcome = 'submitted' | 'canceled' | 'completed' | 'exited' | 'failed' | 'error';

/**
 * Spec 2 "Identity verification modal (third-party frame)": the provider's hosted flow in a frame,
 * full screen on a phone. The hosted page says when the renter is done with a postMessage
 * ({ source: 'ampere-twin', flow, outcome }); only messages from this page's own origin count
 * (decision 020). Closing the modal is the renter's "cancel".
 */
export function ProviderFrameModal({
  url,
  title,
  flow,
  onFinish,
}: {
  url: string | null;
  title: string;
  flow: 'identity' | 'insurance';
  onFinish: (outcome: TwinOutcome | 'closed') => void;
}) {
  const wide = useWideLayout();
  useEffect(() => {
    if (!url) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as { source?: unknown; flow?: unknown; outcome?: unknown } | null;
      if (!data || data.source !== 'ampere-twin' || data.flow !== flow || typeof data.outcome !== 'string') return;
      onFinish(data.outcome as TwinOutcome);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [url, flow, onFinish]);
  return (
    <Modal opened={url !== null} onClose={() => onFinish('closed')} title={title} size="lg" fullScreen={!wide} centered>
      {url && <iframe className={classes.frame} src={url} title={title} allow="camera" />}
    </Modal>
  );
}
