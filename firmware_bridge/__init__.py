"""Wire protocol between vehicle firmware and the onboard runtime."""
