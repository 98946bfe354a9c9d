import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The profile form in a modal dialog: the browser's own <dialog> keeps focus inside and closes on Escape;
 * focus goes to the name field on open and back to the opener (the header chip) on close.
 */
export function ProfileDialog({
  open,
  onClose,
  initialFocusId,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The field focused on open. */
  initialFocusId: string;
  /** Where focus goes back on close. */
  returnFocusTo: () => HTMLElement | null;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (open && !node.open) {
      node.showModal();
      document.getElementById(initialFocusId)?.focus();
    } else if (!open && node.open) {
      node.close();
    }
    // Escape closes the native dialog before React hears of it: hand focus back however it closed.
    if (!open && wasOpen.current) returnFocusTo()?.focus();
    wasOpen.current = open;
  }, [open, initialFocusId, returnFocusTo]);
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    // The dialog's Escape closes it; it must not also take a sub-screen back home.
    if (event.key === 'Escape') event.stopPropagation();
  };
  return (
    <dialog
      ref={dialog}
      className="profile-dialog"
      aria-labelledby="profile-title"
      onClose={onClose}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its card) closes it.
        if (event.target === dialog.current) onClose();
      }}
    >
      {open && children}
    </dialog>
  );
}
