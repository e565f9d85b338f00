// What a section of the Empresa screen says after Salvar: the refusal, or that it was saved.
export function Notices(props: { error: string | null; message: string | null }) {
  return (
    <>
      {props.error && (
        <p role="alert" class="error">
          {props.error}
        </p>
      )}
      {props.message && (
        <p role="status" class="mg-success">
          {props.message}
        </p>
      )}
    </>
  );
}
