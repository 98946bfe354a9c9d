/** Shown over the app when settings could not be read or saved: play goes on, and the player knows why. */
export function StorageWarningBanner({ message }: { message: string }) {
  return (
    <div className="banner banner-warning" role="status" data-testid="storage-warning">
      <span>{message}</span>
    </div>
  );
}
