"""One module per printable: each turns computed stat blocks into a view model."""
