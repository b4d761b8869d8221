import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question (<dialog> with showModal: focus stays inside, Escape cancels), used before
 * a delete. The safe answer (cancel) has the focus first; `children` shows the API's refusal.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const { open, onCancel } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {open ? (
        <article>
          <header>
            <h2 id={titleId}>{props.title}</h2>
          </header>
          <p id={messageId}>{props.message}</p>
          {props.children}
          <footer>
            <button type="button" className="secondary" autoFocus onClick={onCancel}>
              {props.cancelLabel}
            </button>{' '}
            <button type="button" onClick={props.onConfirm} disabled={props.busy} aria-busy={props.busy}>
              {props.confirmLabel}
            </button>
          </footer>
        </article>
      ) : null}
    </dialog>
  );
}
